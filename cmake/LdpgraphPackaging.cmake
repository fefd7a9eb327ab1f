# Debian packages, one per install component (cmake/LdpgraphInstall.cmake):
#   ldpgraphd         the daemon as a systemd service (packaging/ldpgraphd/)
#   ldpgraph          the CLI and the device fleet simulator
#   libldpgraph0      the SDK as a shared library
#   libldpgraph-dev   headers, static and shared SDK, CMake package, pkg-config
#   libldpgraph-java  ldpgraph.jar and its JNI library
# packaging/build-packages.sh configures a build with the /usr prefix these
# need, runs `cpack -G DEB` and builds the Python wheel beside them.
#
# The version is project()'s, and nowhere else: the packages, the jar, the
# wheel (daemon/bindings/python/setup.py reads it from CMakeLists.txt), and
# `ldpgraphd --version` all take it from there; the changelog's top entry
# must name it.
file(STRINGS ${PROJECT_SOURCE_DIR}/packaging/changelog changelog_top LIMIT_COUNT 1)
if(NOT changelog_top MATCHES "^ldpgraph \\(${PROJECT_VERSION}\\) ")
  message(FATAL_ERROR "packaging/changelog's top entry (${changelog_top}) is not version ${PROJECT_VERSION} "
                      "of CMakeLists.txt's project(): add an entry for it")
endif()

set(CPACK_PACKAGE_NAME ldpgraph)
set(CPACK_PACKAGE_VENDOR "ldpgraph")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "ldpgraph developers <dev@ldpgraph.invalid>")
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
# Absolute destinations (/etc/ldpgraph) need the install under DESTDIR.
set(CPACK_SET_DESTDIR ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # NAME_VERSION_ARCH.deb
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # Depends: from the binaries' libraries (dpkg-shlibdeps)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)  # libldpgraph-dev: Depends: libldpgraph0 (= version)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/ldpgraph/ldpgraph")
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)

set(CPACK_COMPONENTS_ALL daemon cli lib dev)
if(TARGET ldpgraph_java)
  list(APPEND CPACK_COMPONENTS_ALL java)
endif()

set(CPACK_DEBIAN_DAEMON_PACKAGE_NAME ldpgraphd)
set(CPACK_DEBIAN_DAEMON_PACKAGE_SECTION net)
# openssl makes the first certificate; systemd-sysusers the user.
set(CPACK_DEBIAN_DAEMON_PACKAGE_DEPENDS "openssl, systemd")
set(CPACK_DEBIAN_DAEMON_PACKAGE_SUGGESTS "ldpgraph")
set(CPACK_DEBIAN_DAEMON_PACKAGE_CONTROL_EXTRA
  ${PROJECT_SOURCE_DIR}/packaging/ldpgraphd/postinst
  ${PROJECT_SOURCE_DIR}/packaging/ldpgraphd/prerm
  ${PROJECT_SOURCE_DIR}/packaging/ldpgraphd/postrm
  ${PROJECT_SOURCE_DIR}/packaging/ldpgraphd/conffiles)
set(CPACK_DEBIAN_DAEMON_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
set(CPACK_COMPONENT_DAEMON_DESCRIPTION "graph learning under local differential privacy: the daemon
ldpgraphd takes devices' noisy reports over TLS (friend lists, features and
labels perturbed on the device), stores them durably, denoises and assembles
the graphs, and trains and serves graph neural networks. It runs as a
systemd service under its own user; the installed configuration listens on
loopback with a self-signed certificate made at install time.")

set(CPACK_DEBIAN_CLI_PACKAGE_NAME ldpgraph)
set(CPACK_DEBIAN_CLI_PACKAGE_SECTION science)
set(CPACK_COMPONENT_CLI_DESCRIPTION "graph learning under local differential privacy: the command line
ldpgraph drives a running ldpgraphd (graphs, device tokens, training jobs,
models, predictions), runs the experiments and benchmarks, and trains
offline; ldpgraph-fleet sends a fleet of simulated devices' reports through
the SDK's uploader.")

set(CPACK_DEBIAN_LIB_PACKAGE_NAME libldpgraph${PROJECT_VERSION_MAJOR})
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIB_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_COMPONENT_LIB_DESCRIPTION "graph learning under local differential privacy: the device SDK
The shared library apps link to perturb a user's friend list, features and
label on her device and build the report they send to ldpgraphd.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libldpgraph-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEV_DEPENDS lib)  # Depends: libldpgraph0 (= this version)
set(CPACK_COMPONENT_DEV_DESCRIPTION "graph learning under local differential privacy: SDK development files
The SDK's C++ and C headers, its static and shared libraries, the TLS
uploader (static), a CMake package (find_package(ldpgraph)) and a pkg-config
file.")

set(CPACK_DEBIAN_JAVA_PACKAGE_NAME libldpgraph-java)
set(CPACK_DEBIAN_JAVA_PACKAGE_SECTION java)
set(CPACK_DEBIAN_JAVA_PACKAGE_DEPENDS "default-jre-headless (>= 2:1.17) | java17-runtime-headless")
set(CPACK_COMPONENT_JAVA_DESCRIPTION "graph learning under local differential privacy: the Java SDK
org.ldpgraph (ldpgraph.jar) over the device SDK through JNI: graph
configurations, reports, the privacy budget ledger and the TLS uploader.")

# Each package's changelog where Debian keeps it.
set(changelog_gz ${PROJECT_BINARY_DIR}/changelog.Debian.gz)
execute_process(COMMAND gzip -9 -n -c ${PROJECT_SOURCE_DIR}/packaging/changelog
  OUTPUT_FILE ${changelog_gz} RESULT_VARIABLE gzip_failed)
if(gzip_failed)
  message(FATAL_ERROR "gzip could not compress packaging/changelog")
endif()
foreach(component IN LISTS CPACK_COMPONENTS_ALL)
  string(TOUPPER ${component} upper)
  install(FILES ${changelog_gz} DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${CPACK_DEBIAN_${upper}_PACKAGE_NAME}
    COMPONENT ${component})
endforeach()

include(CPack)
