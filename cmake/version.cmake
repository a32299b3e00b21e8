# `redscope --version`: the commit and build type, in gen/version_info.h,
# remade at every build (not at configure time, which a commit does not
# rerun). A source tree without git may give the commit: -DRS_COMMIT=abc1234.
set(RS_COMMIT "" CACHE STRING "The commit to report where git cannot tell (a tarball)")
add_custom_target(rs_version_info
  COMMAND ${CMAKE_COMMAND} -DSRC=${CMAKE_CURRENT_SOURCE_DIR}
          -DOUT=${CMAKE_CURRENT_BINARY_DIR}/gen/version_info.h
          -DBUILD_TYPE=${CMAKE_BUILD_TYPE} -DCOMMIT=${RS_COMMIT}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/version_info.cmake
  BYPRODUCTS ${CMAKE_CURRENT_BINARY_DIR}/gen/version_info.h
  COMMENT "The commit for --version")
