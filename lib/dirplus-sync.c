#include <config.h>
#include "dirplus.h"
