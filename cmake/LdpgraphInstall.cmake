# cmake --install lays out:
#   bin/ldpgraph, bin/ldpgraphd      the CLI and the daemon (when the daemon is built)
#   share/ldpgraph/                  the daemon's example config and systemd unit
#   include/ldpgraph/*.h             the SDK's public headers (C++ and the C ABI)
#   include/ldpgraph/transport/*.h   the uploader's (with ldpgraph_transport.h, its C ABI)
#   lib/libldpgraph.a                the SDK
#   lib/libldpgraph_transport.a      the uploader (OpenSSL)
#   lib/cmake/ldpgraph/              find_package(ldpgraph) -> ldpgraph::sdk, ldpgraph::transport
#   lib/pkgconfig/ldpgraph.pc        pkg-config --cflags --libs ldpgraph
include(CMakePackageConfigHelpers)

install(TARGETS ldpgraph_sdk EXPORT ldpgraphTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# embedded_arena.h only where its functions are: the bare-metal library.
if(LDPGRAPH_BARE_METAL)
  set(ldpgraph_other_platform_headers "no-such-header.h")
else()
  set(ldpgraph_other_platform_headers "embedded_arena.h")
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/sdk/include/ldpgraph
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "${ldpgraph_other_platform_headers}" EXCLUDE)
if(TARGET ldpgraph_transport)
  install(TARGETS ldpgraph_transport EXPORT ldpgraphTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/sdk/transport/include/ldpgraph
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    FILES_MATCHING PATTERN "*.h")
endif()
if(TARGET ldpgraph_cli)
  install(TARGETS ldpgraph_cli ldpgraphd RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/daemon/systemd/ldpgraphd.service
    DESTINATION ${CMAKE_INSTALL_DATADIR}/ldpgraph/systemd)
  install(FILES ${PROJECT_SOURCE_DIR}/docs/ldpgraphd.example.toml DESTINATION ${CMAKE_INSTALL_DATADIR}/ldpgraph)
endif()

set(LDPGRAPH_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ldpgraph)
install(EXPORT ldpgraphTargets NAMESPACE ldpgraph:: DESTINATION ${LDPGRAPH_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ldpgraphConfig.cmake.in
  ${PROJECT_BINARY_DIR}/ldpgraphConfig.cmake INSTALL_DESTINATION ${LDPGRAPH_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ldpgraphConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ldpgraphConfig.cmake ${PROJECT_BINARY_DIR}/ldpgraphConfigVersion.cmake
  DESTINATION ${LDPGRAPH_CMAKE_DIR})

configure_file(${PROJECT_SOURCE_DIR}/cmake/ldpgraph.pc.in ${PROJECT_BINARY_DIR}/ldpgraph.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/ldpgraph.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
