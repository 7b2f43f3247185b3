# game.cmake — builds the hundred poems into the program (included by the
# top-level CMakeLists). The bytes of data/hyakunin-isshu/data.csv become a
# C array in a generated source, parsed once at start-up by kar_poems.c, so a
# user's clone needs nothing outside the repository. Re-runs when the CSV
# changes (CMAKE_CONFIGURE_DEPENDS).
set(KAR_CSV ${CMAKE_SOURCE_DIR}/data/hyakunin-isshu/data.csv)
set(KAR_GEN ${CMAKE_BINARY_DIR}/generated/kar_data.c)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${KAR_CSV})
file(READ ${KAR_CSV} _kar_hex HEX)
string(LENGTH "${_kar_hex}" _kar_len)
math(EXPR _kar_len "${_kar_len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f])" "\\1\n" _kar_hex "${_kar_hex}")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," _kar_arr "${_kar_hex}")
file(WRITE ${KAR_GEN}.tmp
  "/* kar_data.c — generated from data/hyakunin-isshu/data.csv by\n"
  " * src/games/karuta/game.cmake; do not edit. */\n"
  "#include <stddef.h>\n\n"
  "/* The CSV bytes, NUL-terminated. */\n"
  "const unsigned char kar_csv_data[] = {\n${_kar_arr}0x00};\n"
  "/* Bytes before the NUL. */\n"
  "const size_t kar_csv_size = ${_kar_len};\n")
file(COPY_FILE ${KAR_GEN}.tmp ${KAR_GEN} ONLY_IF_DIFFERENT)
list(APPEND PARLOUR_GAME_SOURCES ${KAR_GEN})
unset(_kar_hex)
unset(_kar_arr)
