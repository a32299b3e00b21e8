# Run after the program is built (cmake -P): its man page and completions,
# made by the program from its tables, into the build tree's share/.
#   -DEXE=the program -DOUT=build/share
foreach(pair "man;man/man1/redscope.1" "bash;bash-completion/completions/redscope"
             "zsh;zsh/vendor-completions/_redscope" "fish;fish/vendor_completions.d/redscope.fish")
  list(GET pair 0 what)
  list(GET pair 1 file)
  get_filename_component(dir "${OUT}/${file}" DIRECTORY)
  file(MAKE_DIRECTORY "${dir}")
  execute_process(COMMAND "${EXE}" --generate ${what} OUTPUT_FILE "${OUT}/${file}"
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "redscope --generate ${what} failed (${rc})")
  endif()
endforeach()
# the man page as man finds it installed, gzip -9n: the same bytes from the same source
find_program(GZIP gzip REQUIRED)
execute_process(COMMAND "${GZIP}" -9nkf "${OUT}/man/man1/redscope.1" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip of the man page failed (${rc})")
endif()
