# The man pages: docs/man/NAME.SECTION.scd made into roff by scdoc at build
# time (target `man`, part of `all`), and the install rules of the pages
# (CMAKE_INSTALL_MANDIR/manSECTION) and of the bash completion
# (completion/cephbench.bash). Included by CMakeLists.txt.
include(GNUInstallDirs)
find_program(SCDOC scdoc)
if(NOT SCDOC)
	message(FATAL_ERROR "scdoc not found: the man pages (docs/man/*.scd) are made "
		"with it (apt-get install scdoc)")
endif()
file(GLOB CB_MAN_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/man/*.scd)
set(CB_MAN_DIR ${PROJECT_BINARY_DIR}/man)
file(MAKE_DIRECTORY ${CB_MAN_DIR})
set(CB_MAN_PAGES "")
foreach(src ${CB_MAN_SOURCES})
	get_filename_component(page ${src} NAME_WLE) # cephbench-run.1
	string(REGEX MATCH "[0-9]$" section ${page})
	# scdoc reads stdin and writes stdout only; installed gzipped, as
	# Debian's policy has man pages (-n: no time stamp, the same bytes
	# every build)
	add_custom_command(OUTPUT ${CB_MAN_DIR}/${page} ${CB_MAN_DIR}/${page}.gz
		COMMAND ${SCDOC} < ${src} > ${CB_MAN_DIR}/${page}
		COMMAND gzip -n -9 -c ${CB_MAN_DIR}/${page} > ${CB_MAN_DIR}/${page}.gz
		DEPENDS ${src} COMMENT "scdoc ${page}" VERBATIM)
	list(APPEND CB_MAN_PAGES ${CB_MAN_DIR}/${page}.gz)
	install(FILES ${CB_MAN_DIR}/${page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section})
endforeach()
add_custom_target(man ALL DEPENDS ${CB_MAN_PAGES})

# bash-completion loads completions/NAME on the first TAB after NAME
install(FILES ${PROJECT_SOURCE_DIR}/completion/cephbench.bash
	DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME cephbench)
