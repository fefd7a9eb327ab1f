// CRC-32 (IEEE 802.3, reflected, as zlib) to detect a corrupt stored state.
#ifndef LDPGRAPH_BASE_CRC32_H_
#define LDPGRAPH_BASE_CRC32_H_

#include <cstddef>
#include <cstdint>

namespace ldpgraph {
namespace base {

std::uint32_t Crc32(const std::uint8_t* data, std::size_t size);

}  // namespace base
}  // namespace ldpgraph

#endif  // LDPGRAPH_BASE_CRC32_H_
