# seek_levels.cmake — builds data/ratings/levels.txt (the computer levels'
# measured ratings) into the server as a C string (generated/seek_levels_data.c),
# so that "Play now" seats the computer nearest a player's rating
# (src/server/hub_seek.c) without reading a file at run time. Included by the
# top-level CMakeLists like src/core/words.cmake; editing the file re-runs
# the configuration (CMAKE_CONFIGURE_DEPENDS).
set(SEEK_LEVELS_GEN ${CMAKE_BINARY_DIR}/generated/seek_levels_data.c)
set(_lf ${CMAKE_SOURCE_DIR}/data/ratings/levels.txt)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_lf})
file(READ ${_lf} _hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," _arr "${_hex}")
file(WRITE ${SEEK_LEVELS_GEN}.tmp
  "/* seek_levels_data.c — generated from data/ratings/levels.txt by\n"
  " * src/server/seek_levels.cmake; do not edit. */\n"
  "const unsigned char hub_seek_levels_data[] = {\n${_arr}0x00};\n")
file(COPY_FILE ${SEEK_LEVELS_GEN}.tmp ${SEEK_LEVELS_GEN} ONLY_IF_DIFFERENT)
unset(_hex)
unset(_arr)
