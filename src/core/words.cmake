# words.cmake — builds the terminal's catalogues (data/words/LANG.txt) into
# the program (included by the top-level CMakeLists, as the poems are by
# src/games/karuta/game.cmake). Each file's bytes become a writable C array
# in a generated source, parsed in place once by src/core/words.c, so that
# nothing outside the repository is read at run time. Editing a catalogue
# re-runs the configuration (CMAKE_CONFIGURE_DEPENDS).
set(WORDS_GEN ${CMAKE_BINARY_DIR}/generated/words_data.c)
set(_words_out "/* words_data.c — generated from data/words/LANG.txt by\n"
               " * src/core/words.cmake; do not edit. */\n#include <stddef.h>\n\n")
foreach(_lang en ru ja vi)
  set(_f ${CMAKE_SOURCE_DIR}/data/words/${_lang}.txt)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_f})
  file(READ ${_f} _hex HEX)
  string(LENGTH "${_hex}" _len)
  math(EXPR _len "${_len} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f])" "\\1\n" _hex "${_hex}")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," _arr "${_hex}")
  string(APPEND _words_out
    "/* data/words/${_lang}.txt, NUL-terminated (parsed in place: not const). */\n"
    "unsigned char pl_words_data_${_lang}[] = {\n${_arr}0x00};\n"
    "const size_t pl_words_size_${_lang} = ${_len};\n\n")
endforeach()
file(WRITE ${WORDS_GEN}.tmp "${_words_out}")
file(COPY_FILE ${WORDS_GEN}.tmp ${WORDS_GEN} ONLY_IF_DIFFERENT)
list(APPEND PARLOUR_CORE_SOURCES ${WORDS_GEN})
unset(_hex)
unset(_arr)
unset(_words_out)
