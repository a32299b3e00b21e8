# redscope(1) and completion for bash, zsh and fish: made by the program
# from its tables (`redscope --generate man|bash|zsh|fish`, src/cmd/generate*.c)
# each time it is built, into build/share/ (man -l build/share/man/man1/redscope.1),
# and installed from there. tests/cli/test_docs.py holds them against every
# option the program takes.
set(RS_SHARE ${CMAKE_BINARY_DIR}/share)
add_custom_command(TARGET redscope POST_BUILD
  COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:redscope> -DOUT=${RS_SHARE}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/generate_docs.cmake
  COMMENT "The man page and completions, from the tables")
install(FILES ${RS_SHARE}/man/man1/redscope.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${RS_SHARE}/bash-completion/completions/redscope
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${RS_SHARE}/zsh/vendor-completions/_redscope
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${RS_SHARE}/fish/vendor_completions.d/redscope.fish
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
