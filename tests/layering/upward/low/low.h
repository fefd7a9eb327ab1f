// Deliberately wrong: a lower folder reaching up.
#include "high/high.h"
