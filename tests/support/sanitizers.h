#pragma once

// Whether this test binary runs under AddressSanitizer. GCC defines
// __SANITIZE_ADDRESS__; clang 14 answers only through __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define LDPGRAPH_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LDPGRAPH_UNDER_ASAN 1
#endif
#endif
#ifndef LDPGRAPH_UNDER_ASAN
#define LDPGRAPH_UNDER_ASAN 0
#endif
