# Writes OUT: a C file defining const char NAME[] with the bytes of the
# files IN (paths separated by |, joined in that order), so the pages' script and style
# ship inside the binary.
set(bytes "")
string(REPLACE "|" ";" files "${IN}")
foreach(in ${files})
	file(READ "${in}" hex HEX)
	string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," part "${hex}")
	string(APPEND bytes "${part}")
endforeach()
file(WRITE "${OUT}" "/* generated from ${IN} */\nconst char ${NAME}[] = {${bytes}0x00};\n")
