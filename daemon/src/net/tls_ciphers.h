// The TLS 1.2 cipher suites ldpgraphd offers unless configured otherwise:
// AEAD (GCM, ChaCha20-Poly1305) with ECDHE forward secrecy only. The CBC
// suites with SHA-1 MACs that OpenSSL also enables by default are left out
// (padding oracles, Lucky13). TLS 1.3's suites are all AEAD.
#ifndef LDPGRAPH_DAEMON_NET_TLS_CIPHERS_H_
#define LDPGRAPH_DAEMON_NET_TLS_CIPHERS_H_

namespace ldpgraph {

inline constexpr const char* kDefaultTls12Ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_NET_TLS_CIPHERS_H_
