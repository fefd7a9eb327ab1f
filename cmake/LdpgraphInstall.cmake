# cmake --install lays out, by component (each is one Debian package,
# cmake/LdpgraphPackaging.cmake):
#   daemon (ldpgraphd)
#     bin/ldpgraphd                       the daemon
#     lib/systemd/system/ldpgraphd.service  its unit, ExecStart at this prefix's bin/
#     lib/sysusers.d/ldpgraphd.conf       its system user
#     share/ldpgraph/ldpgraphd.example.toml  every key with its default
#     share/ldpgraph/monitoring/          Prometheus alert rules, a Grafana dashboard
#     etc/ldpgraph/ldpgraphd.toml         the installed configuration (/etc under /usr)
#   cli (ldpgraph)
#     bin/ldpgraph, bin/ldpgraph-fleet    the CLI and the device fleet simulator
#   lib (libldpgraph0)
#     lib/libldpgraph.so.MAJOR            the SDK, shared
#   dev (libldpgraph-dev)
#     include/ldpgraph/*.h                the SDK's public headers (C++ and the C ABI)
#     include/ldpgraph/transport/*.h      the uploader's (with ldpgraph_transport.h, its C ABI)
#     lib/libldpgraph.a, lib/libldpgraph.so  the SDK (static, and the link to the shared one)
#     lib/libldpgraph_transport.a         the uploader (OpenSSL)
#     lib/cmake/ldpgraph/                 find_package(ldpgraph) -> ldpgraph::sdk, ldpgraph::sdk_shared,
#                                         ldpgraph::transport
#     lib/pkgconfig/ldpgraph.pc           pkg-config --cflags --libs ldpgraph
#   java (libldpgraph-java): sdk/bindings/java/CMakeLists.txt
include(CMakePackageConfigHelpers)

install(TARGETS ldpgraph_sdk EXPORT ldpgraphTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
if(TARGET ldpgraph_sdk_shared)
  install(TARGETS ldpgraph_sdk_shared EXPORT ldpgraphTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT lib NAMELINK_COMPONENT dev)
endif()
# embedded_arena.h only where its functions are: the bare-metal library.
if(LDPGRAPH_BARE_METAL)
  set(ldpgraph_other_platform_headers "no-such-header.h")
else()
  set(ldpgraph_other_platform_headers "embedded_arena.h")
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/sdk/include/ldpgraph
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev
  FILES_MATCHING PATTERN "*.h" PATTERN "${ldpgraph_other_platform_headers}" EXCLUDE)
if(TARGET ldpgraph_transport)
  install(TARGETS ldpgraph_transport EXPORT ldpgraphTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/sdk/transport/include/ldpgraph
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev
    FILES_MATCHING PATTERN "*.h")
endif()
if(TARGET ldpgraph_cli)
  install(TARGETS ldpgraph_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
  install(TARGETS ldpgraphd RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT daemon)
  # The unit runs the daemon from wherever this install put it: its
  # ExecStart is written at install time, under the prefix of the install
  # (CPack installs again under its own).
  install(CODE "
    file(READ \"${PROJECT_SOURCE_DIR}/daemon/systemd/ldpgraphd.service\" unit)
    string(REPLACE \"/usr/local/bin/ldpgraphd\" \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/ldpgraphd\" unit \"\${unit}\")
    file(WRITE \"${PROJECT_BINARY_DIR}/install-staging/ldpgraphd.service\" \"\${unit}\")
    file(INSTALL \"${PROJECT_BINARY_DIR}/install-staging/ldpgraphd.service\"
         DESTINATION \"\${CMAKE_INSTALL_PREFIX}/lib/systemd/system\")  # file(INSTALL) adds DESTDIR itself
  " COMPONENT daemon)
  install(FILES ${PROJECT_SOURCE_DIR}/daemon/systemd/ldpgraphd.sysusers
    DESTINATION lib/sysusers.d RENAME ldpgraphd.conf COMPONENT daemon)
  if(TARGET fleet_simulator)  # many devices' reports through the SDK's uploader, for a first run
    install(PROGRAMS $<TARGET_FILE:fleet_simulator> DESTINATION ${CMAKE_INSTALL_BINDIR} RENAME ldpgraph-fleet
      COMPONENT cli)
  endif()
  install(FILES ${PROJECT_SOURCE_DIR}/daemon/monitoring/ldpgraphd.rules.yml
    ${PROJECT_SOURCE_DIR}/daemon/monitoring/ldpgraphd.dashboard.json
    DESTINATION ${CMAKE_INSTALL_DATADIR}/ldpgraph/monitoring COMPONENT daemon)
  install(FILES ${PROJECT_SOURCE_DIR}/docs/ldpgraphd.example.toml
    DESTINATION ${CMAKE_INSTALL_DATADIR}/ldpgraph COMPONENT daemon)
  # /etc/ldpgraph under the /usr prefix (the packages), PREFIX/etc/ldpgraph
  # under any other: decided when installing, so that an install into a
  # scratch prefix never writes the machine's /etc.
  install(CODE "
    if(CMAKE_INSTALL_PREFIX STREQUAL \"/usr\")
      set(ldpgraph_etc \"/etc/ldpgraph\")
    else()
      set(ldpgraph_etc \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_SYSCONFDIR}/ldpgraph\")
    endif()
    file(INSTALL \"${PROJECT_SOURCE_DIR}/packaging/ldpgraphd/ldpgraphd.toml\"
         DESTINATION \"\${ldpgraph_etc}\")  # file(INSTALL) adds DESTDIR itself
  " COMPONENT daemon)
endif()

set(LDPGRAPH_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ldpgraph)
install(EXPORT ldpgraphTargets NAMESPACE ldpgraph:: DESTINATION ${LDPGRAPH_CMAKE_DIR} COMPONENT dev)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ldpgraphConfig.cmake.in
  ${PROJECT_BINARY_DIR}/ldpgraphConfig.cmake INSTALL_DESTINATION ${LDPGRAPH_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ldpgraphConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ldpgraphConfig.cmake ${PROJECT_BINARY_DIR}/ldpgraphConfigVersion.cmake
  DESTINATION ${LDPGRAPH_CMAKE_DIR} COMPONENT dev)

configure_file(${PROJECT_SOURCE_DIR}/cmake/ldpgraph.pc.in ${PROJECT_BINARY_DIR}/ldpgraph.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/ldpgraph.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)
