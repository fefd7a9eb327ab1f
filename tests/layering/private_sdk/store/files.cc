// Deliberately wrong: the SDK's private header, where its base is allowed.
#include "base/crc32.h"
#include "internal/durable_file.h"
