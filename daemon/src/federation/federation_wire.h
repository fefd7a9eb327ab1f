// The bytes FedCog's parties and coordinator exchange (HTTP bodies of type
// application/octet-stream over mutual TLS), little-endian:
//   matrices: "LGFW" | u32 version = 1 | u32 count | each: u32 rows,
//             u32 cols, rows x cols f32 (row by row)
//   messages: "LGFM" | u32 version = 1 | u32 count | each: u32 from party,
//             u32 to party, u32 rows, u32 cols, rows x u32 user (global
//             id), rows x cols f32
//   round:    "LGFR" | u32 version = 1 | 5 x u64 (train, val, val right,
//             test, test right) | the gradient as matrices (count 0: none)
// Decoders take untrusted bytes: every size is checked against what is
// left, and a value that is not finite is refused.
#ifndef LDPGRAPH_DAEMON_FEDERATION_FEDERATION_WIRE_H_
#define LDPGRAPH_DAEMON_FEDERATION_FEDERATION_WIRE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/matrix.h"
#include "federation/decoupled_gcn.h"
#include "federation/federated_sgc.h"

namespace ldpgraph {

std::string EncodeMatrices(const std::vector<Matrix>& matrices);
// Errors: kInvalidArgument naming what is wrong.
Result<std::vector<Matrix>> DecodeMatrices(const std::string& bytes);

std::string EncodeMessages(const std::vector<BorderMessage>& messages);
Result<std::vector<BorderMessage>> DecodeMessages(const std::string& bytes);

std::string EncodePartyRound(const PartyRound& round);
Result<PartyRound> DecodePartyRound(const std::string& bytes);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_FEDERATION_FEDERATION_WIRE_H_
