// The graph configuration in binary, for devices: what the daemon serves at
// GET /v1/graphs/{id} with "Accept: application/x-ldpgraph-config", so the
// SDK needs no JSON parser. Layout in docs/wire-format.md ("Graph
// configuration"); one encoding per configuration.
#ifndef LDPGRAPH_GRAPH_CONFIG_CODEC_H_
#define LDPGRAPH_GRAPH_CONFIG_CODEC_H_

#include <cstdint>
#include <vector>

#include "ldpgraph/graph_config.h"

namespace ldpgraph {

constexpr char kGraphConfigMediaType[] = "application/x-ldpgraph-config";

// Errors: those of GraphConfig::Validate() (nothing invalid is encoded).
Status EncodeGraphConfig(const GraphConfig& config, std::vector<std::uint8_t>* out);

// From untrusted bytes. Errors: kInvalidArgument naming the field and byte
// offset, or what GraphConfig::Validate() refuses.
Result<GraphConfig> DecodeGraphConfig(const std::uint8_t* data, std::size_t size);

}  // namespace ldpgraph

#endif  // LDPGRAPH_GRAPH_CONFIG_CODEC_H_
