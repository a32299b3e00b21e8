# libFuzzer targets (clang), run for a bounded time as tests labelled fuzz:
# the preset reader, the command line, sizes, recordings (--replay), and
# outside text and file names (the escape rule and the writer's checks).
# Each is built by clang whatever the project's C compiler is, from its
# harness tests/fuzz/NAME.c and the src/ files it names, compiled directly.
# Seeds are copied into the build tree (NAME_corpus), so what a run finds
# lands there, not in the sources.
find_program(RS_CLANG NAMES clang clang-14)
if(RS_FUZZ AND NOT RS_CLANG)
  message(WARNING "RS_FUZZ=ON but no clang found: the fuzz targets are not built")
endif()
if(RS_FUZZ AND RS_CLANG)
  # Every header of the sources a harness compiles: a change rebuilds it.
  file(GLOB RS_FUZZ_HEADERS ${PROJECT_SOURCE_DIR}/src/cli/*.h ${PROJECT_SOURCE_DIR}/src/cmd/*.h
                            ${PROJECT_SOURCE_DIR}/src/core/*.h
                            ${PROJECT_SOURCE_DIR}/src/analysis/*.h
                            ${PROJECT_SOURCE_DIR}/src/formats/*.h
                            ${PROJECT_SOURCE_DIR}/src/ui/ui.h)
  set(RS_FUZZ_CORE core/request.c core/size.c core/sweep_range.c core/catalogue.c core/types.c
                   core/metric_table.c core/error.c core/ukernel.c analysis/parallel.c core/value.c core/text.c
                   formats/files.c core/format.c)
  # Five fuzzers share CI's two cores: 45 s each keeps the fuzz label to a
  # few minutes.
  set(RS_FUZZ_SECONDS 45)

  # rs_fuzzer(NAME SOURCES src/... [SEEDS glob...] [FLAGS clang flags...]
  #           [LIBS libraries...])
  function(rs_fuzzer name)
    cmake_parse_arguments(FZ "" "" "SOURCES;SEEDS;FLAGS;LIBS" ${ARGN})
    set(out ${CMAKE_CURRENT_BINARY_DIR}/${name})
    set(srcs ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/${name}.c)
    foreach(s ${FZ_SOURCES})
      list(APPEND srcs ${PROJECT_SOURCE_DIR}/src/${s})
    endforeach()
    add_custom_command(
      OUTPUT ${out}
      COMMAND ${RS_CLANG} -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
              -DRS_VERSION="${PROJECT_VERSION}" -g -O1 ${RS_C_WARNINGS}
              -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
              -I${PROJECT_SOURCE_DIR}/src -I${PROJECT_BINARY_DIR}/gen ${FZ_FLAGS} ${srcs} ${FZ_LIBS} -lm -o ${out}
      DEPENDS ${srcs} ${RS_FUZZ_HEADERS}
      COMMENT "Building the ${name} fuzzer with clang"
      VERBATIM)
    add_custom_target(${name}_bin ALL DEPENDS ${out})
    set(corpus ${CMAKE_CURRENT_BINARY_DIR}/${name}_corpus)
    file(MAKE_DIRECTORY ${corpus})
    file(GLOB seeds ${FZ_SEEDS})
    if(seeds)
      file(COPY ${seeds} DESTINATION ${corpus})
    endif()
    add_test(NAME ${name}
             COMMAND ${out} -max_total_time=${RS_FUZZ_SECONDS} -rss_limit_mb=1024 -timeout=5
                     -artifact_prefix=${CMAKE_CURRENT_BINARY_DIR}/${name}- ${corpus})
    set_tests_properties(${name} PROPERTIES LABELS "unit;fuzz" TIMEOUT 300)
  endfunction()

  # inih and cJSON as the main build found them (CMakeLists.txt).
  set(RS_FUZZ_CJSON)
  foreach(dir ${CJSON_INCLUDE_DIRS})
    list(APPEND RS_FUZZ_CJSON -I${dir})
  endforeach()

  rs_fuzzer(fuzz_preset
    SOURCES formats/preset.c ${RS_FUZZ_CORE}
    SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/data/presets_bad/*.ini ${PROJECT_SOURCE_DIR}/conf/presets/*.ini
    FLAGS -I${INIH_INCLUDE} LIBS ${INIH_STATIC})
  rs_fuzzer(fuzz_size
    SOURCES ${RS_FUZZ_CORE}
    SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_seeds/size/*)
  # The shipped presets from the source tree; no user presets (see the harness).
  # The commands' entries open their files in src/cmd/: the harness parses
  # with the real entries and never runs a command, so what the commands'
  # functions call (the explorer, NVRTC, the GPU process) is left unlinked.
  file(GLOB RS_FUZZ_CMDS RELATIVE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/src/cmd/*.c)
  file(GLOB RS_FUZZ_WRITERS RELATIVE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/src/formats/write_*.c)
  rs_fuzzer(fuzz_cli
    SOURCES cli/parse.c cli/commands.c ${RS_FUZZ_CMDS} formats/writer.c ${RS_FUZZ_WRITERS}
            formats/doc.c formats/csv_cells.c formats/preset.c formats/json.c formats/json_figures.c formats/energy.c core/cpu_time.c
            analysis/reference.c
            formats/check.c core/result.c core/stalls.c formats/stalls_json.c core/stall_table.c
            analysis/stall_links.c analysis/stall_diff.c core/sass_op.c analysis/multi.c ${RS_FUZZ_CORE}
    SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_seeds/cli/*
    FLAGS -DRS_FUZZ_DATA_DIR="${PROJECT_SOURCE_DIR}/conf" -I${INIH_INCLUDE} ${RS_FUZZ_CJSON}
    LIBS ${INIH_STATIC} ${CJSON_LINK_LIBRARIES} -no-pie -Wl,--unresolved-symbols=ignore-all)
  rs_fuzzer(fuzz_recording
    SOURCES formats/record.c formats/json.c formats/json_figures.c formats/energy.c core/cpu_time.c formats/source_recording.c
            analysis/sweep.c analysis/sweep_edge.c formats/sweep_out.c formats/sweep_limits.c
            analysis/reference.c core/result.c formats/tables.c analysis/ladder.c analysis/stories.c formats/csv.c formats/csv_cells.c formats/check.c formats/record_write.c
            core/stalls.c formats/stalls_json.c formats/stalls_io.c formats/stalls_csv.c
            core/stall_table.c analysis/stall_links.c analysis/stall_diff.c core/sass_op.c ${RS_FUZZ_CORE}
    SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_seeds/recording/*
    FLAGS ${RS_FUZZ_CJSON} LIBS ${CJSON_LINK_LIBRARIES})
  rs_fuzzer(fuzz_names
    SOURCES ${RS_FUZZ_CORE}
    SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_seeds/names/*)
endif()
