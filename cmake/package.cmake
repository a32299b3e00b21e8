# Installed like a system tool: `cmake --install` to any prefix puts each
# thing in its FHS place, and CPack makes a Debian package of the same.
#   bin/redscope
#   share/redscope/{presets,recordings,kernels}   found from the program
#   lib/redscope/cubins    the kernels' cubins: GPU code, so not in share/
#   share/man/man1/redscope.1.gz, share/{bash-completion,zsh,fish}/…  (cmake/docs.cmake)
#   share/doc/redscope/{copyright,README.md,changelog.Debian.gz}
# The build tree is laid out the same way (share/redscope beside the
# program), so the program finds its data by one rule wherever it runs.

set(RS_DATA ${CMAKE_INSTALL_DATADIR}/redscope)
set(RS_DOC ${CMAKE_INSTALL_DATADIR}/doc/redscope)

# ---- the build tree: share/redscope links to the source's conf/ ------------
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/share/redscope)
foreach(d presets recordings kernels)
  file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR}/conf/${d} ${CMAKE_BINARY_DIR}/share/redscope/${d}
       SYMBOLIC)
endforeach()

# ---- installed ---------------------------------------------------------------
install(TARGETS redscope RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY conf/presets/ DESTINATION ${RS_DATA}/presets FILES_MATCHING PATTERN "*.ini")
install(DIRECTORY conf/recordings/ DESTINATION ${RS_DATA}/recordings
        FILES_MATCHING PATTERN "*.json" PATTERN "*.jsonl")
install(DIRECTORY conf/kernels/ DESTINATION ${RS_DATA}/kernels FILES_MATCHING PATTERN "*.cu")
# the kernels' cubins: PC samples of the built-in kernels map to their lines
# (builtin_cubins.c looks beside the program, then in ../lib/redscope)
install(DIRECTORY ${CMAKE_BINARY_DIR}/cubins/ DESTINATION lib/redscope/cubins)
# ELF for the GPU, kept with their line tables: lintian's checks of host
# binaries do not apply to them (the file says why).
install(FILES cmake/lintian-overrides DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides
        RENAME redscope)
install(FILES LICENSE DESTINATION ${RS_DOC} RENAME copyright)
install(FILES README.md DESTINATION ${RS_DOC})

# Debian's changelog, compressed as its policy asks (gzip -9n: no name, no
# time, so the package is the same from the same source).
set(RS_CHANGELOG ${CMAKE_BINARY_DIR}/package/changelog.Debian)
string(TIMESTAMP RS_BUILT "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(WRITE ${RS_CHANGELOG}
  "redscope (${PROJECT_VERSION}-1) unstable; urgency=medium\n\n"
  "  * Built from the redscope sources with CMake and CPack.\n\n"
  " -- redscope developers <redscope@users.noreply.github.com>  ${RS_BUILT}\n")
find_program(RS_GZIP gzip)
if(RS_GZIP)
  execute_process(COMMAND ${RS_GZIP} -9nf ${RS_CHANGELOG})
  install(FILES ${RS_CHANGELOG}.gz DESTINATION ${RS_DOC})
endif()

# ---- the Debian package --------------------------------------------------------
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME redscope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_DEBIAN_PACKAGE_RELEASE 1) # not a native package: its changelog is changelog.Debian
set(CPACK_PACKAGE_CONTACT "redscope developers <redscope@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "see why a CUDA reduction kernel is fast or slow")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "redscope runs the classic ladder of parallel-reduction kernels live on an\n"
  "NVIDIA GPU and shows their cudaEvent times beside hardware counters read\n"
  "through CUPTI, with an explanation of each step that quotes the numbers\n"
  "just measured: a full-screen explorer for the terminal and a batch\n"
  "command line (tables, CSV, JSON, Markdown, HTML). Recordings of real GPUs\n"
  "replay without one. The CUDA driver, CUPTI, NVRTC and NCCL are loaded at\n"
  "run time where present.")
string(REPLACE ";" "" CPACK_DEBIAN_PACKAGE_DESCRIPTION "${CPACK_DEBIAN_PACKAGE_DESCRIPTION}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Depends: from the libraries the program links (dpkg-shlibdeps: ncurses,
# cJSON, libc; inih is linked statically). gnuplot draws --plot's charts.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gnuplot-nox | gnuplot")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
include(CPack)
