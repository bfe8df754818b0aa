# Writes OUT: a C file defining const char NAME[] with the bytes of IN,
# so the page's script and style ship inside the binary.
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE "${OUT}" "/* generated from ${IN} */\nconst char ${NAME}[] = {${bytes}0x00};\n")
