// libFuzzer target: the bytes FedCog's parties and coordinator take from
// each other (federation/federation_wire.h) and the files a party reads
// back (held graph shares, federated models). Must never crash; what the
// wire decoders accept must re-encode to exactly the same bytes.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "federation/federated_model.h"
#include "federation/federation_wire.h"
#include "gap/held_graph.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  // The first byte picks the body's kind; the rest gets the right magic half the time.
  if (auto m = ldpgraph::DecodeMessages(bytes); m.ok() && ldpgraph::EncodeMessages(*m) != bytes) std::abort();
  if (auto w = ldpgraph::DecodeMatrices(bytes); w.ok() && ldpgraph::EncodeMatrices(*w) != bytes) std::abort();
  if (auto r = ldpgraph::DecodePartyRound(bytes); r.ok() && ldpgraph::EncodePartyRound(*r) != bytes) std::abort();
  for (const char* magic : {"LGFM\1\0\0\0", "LGFW\1\0\0\0", "LGFR\1\0\0\0"}) {
    const std::string framed = std::string(magic, 8) + bytes;
    if (auto m = ldpgraph::DecodeMessages(framed); m.ok() && ldpgraph::EncodeMessages(*m) != framed) std::abort();
    if (auto w = ldpgraph::DecodeMatrices(framed); w.ok() && ldpgraph::EncodeMatrices(*w) != framed) std::abort();
    if (auto r = ldpgraph::DecodePartyRound(framed); r.ok() && ldpgraph::EncodePartyRound(*r) != framed) std::abort();
  }
  const std::vector<std::uint8_t> file(data, data + size);
  (void)ldpgraph::DecodeHeldGraph(file);
  (void)ldpgraph::DecodeFederatedModel(file);
  return 0;
}
