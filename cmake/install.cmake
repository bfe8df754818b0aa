# Install rules and the Debian package (CPack's DEB generator).
#
#   cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr
#   make -C build -j2 && (cd build && cpack)    # build/cephbench_VERSION_ARCH.deb
#
# The binary, the profiles (share/cephbench/profiles: `cephbench run quick`
# finds them by name, src/profiles_dir.c), the docs and the result and
# progress schemas; the man pages and the bash completion are
# cmake/man.cmake's.
include(GNUInstallDirs)

set(CB_PROFILES_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/cephbench/profiles)
# the binary looks beside itself first (PREFIX/bin/../share/...), then here
set_source_files_properties(src/profiles_dir.c PROPERTIES COMPILE_DEFINITIONS
	"CB_PROFILES_DIR=\"${CMAKE_INSTALL_FULL_DATADIR}/cephbench/profiles\"")

install(TARGETS cephbench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY profiles/ DESTINATION ${CB_PROFILES_INSTALL_DIR} FILES_MATCHING PATTERN "*.yaml")
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}
	FILES_MATCHING PATTERN "*.md" PATTERN "*.json" PATTERN "man" EXCLUDE)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME cephbench)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
	"Ceph cluster benchmark: RADOS, RBD, CephFS and krbd from one YAML profile")
set(CPACK_PACKAGE_DESCRIPTION
	"cephbench runs a YAML profile of workloads against a Ceph cluster through librados, librbd, libcephfs and kernel-mapped RBD devices, and reports bandwidth, IOPS and latency percentiles with the cluster's own counters beside them, as text, JSON or an HTML page. Everything a run creates is removed at its end.")
set(CPACK_PACKAGE_CONTACT "cephbench developers <cephbench@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# librados2, librbd1, libcephfs2, libyaml, jansson, sqlite, GSL, libaio...:
# dpkg-shlibdeps reads them off the binary
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# not linked but used when present: the HTML page's charts (a note without
# them), the rbd command krbd maps images with, man to read the pages
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libjs-chart.js, ceph-common")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "rbd-fuse, fio, dbench")
set(CPACK_STRIP_FILES ON)
include(CPack)
