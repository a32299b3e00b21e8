# libFuzzer targets (clang), run for a bounded time as tests labelled fuzz.
find_program(RS_CLANG NAMES clang clang-14)
if(RS_FUZZ AND RS_CLANG)
  set(RS_FUZZ_SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_preset.c ${PROJECT_SOURCE_DIR}/src/core/preset.c
    ${PROJECT_SOURCE_DIR}/src/core/request.c ${PROJECT_SOURCE_DIR}/src/core/size.c
    ${PROJECT_SOURCE_DIR}/src/core/sweep_range.c ${PROJECT_SOURCE_DIR}/src/core/catalogue.c
    ${PROJECT_SOURCE_DIR}/src/core/types.c ${PROJECT_SOURCE_DIR}/src/core/metric_table.c
    ${PROJECT_SOURCE_DIR}/src/core/error.c)
  add_custom_command(
    OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/fuzz_preset
    COMMAND ${RS_CLANG} -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -g -O1
            -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
            -I${PROJECT_SOURCE_DIR}/src -I${INIH_INCLUDE} ${RS_FUZZ_SOURCES} ${INIH_STATIC} -lm
            -o ${CMAKE_CURRENT_BINARY_DIR}/fuzz_preset
    DEPENDS ${RS_FUZZ_SOURCES}
    COMMENT "Building the preset fuzzer with clang")
  add_custom_target(fuzz_preset_bin ALL DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/fuzz_preset)
  file(GLOB RS_FUZZ_SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/presets_bad/*.ini
                          ${PROJECT_SOURCE_DIR}/conf/presets/*.ini)
  file(COPY ${RS_FUZZ_SEEDS} DESTINATION ${CMAKE_CURRENT_BINARY_DIR}/fuzz_corpus)
  add_test(NAME fuzz_preset
           COMMAND ${CMAKE_CURRENT_BINARY_DIR}/fuzz_preset -max_total_time=60 -rss_limit_mb=1024
                   -timeout=5 ${CMAKE_CURRENT_BINARY_DIR}/fuzz_corpus)
  set_tests_properties(fuzz_preset PROPERTIES LABELS "unit;fuzz" TIMEOUT 300)
endif()
