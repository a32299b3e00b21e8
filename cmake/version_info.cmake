# Run at every build (cmake -P): the commit the source is at, written to
# OUT only when it changed, so nothing rebuilds for nothing.
#   -DSRC=source dir -DOUT=header -DBUILD_TYPE=... [-DCOMMIT=given]
if(NOT COMMIT)
  set(COMMIT unknown)
  find_program(GIT git)
  if(GIT AND EXISTS "${SRC}/.git")
    execute_process(COMMAND ${GIT} -C "${SRC}" rev-parse --short=7 HEAD
                    OUTPUT_VARIABLE head RESULT_VARIABLE rc ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0 AND head MATCHES "^[0-9a-f]+$")
      set(COMMIT ${head})
      execute_process(COMMAND ${GIT} -C "${SRC}" status --porcelain --untracked-files=no
                      OUTPUT_VARIABLE changes ERROR_QUIET)
      if(changes)
        set(COMMIT "${COMMIT}-dirty")
      endif()
    endif()
  endif()
endif()
if(NOT BUILD_TYPE)
  set(BUILD_TYPE unknown)
endif()
set(text "/* Made at build time by cmake/version_info.cmake. */\n#define RS_COMMIT \"${COMMIT}\"\n#define RS_BUILD_TYPE \"${BUILD_TYPE}\"\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
