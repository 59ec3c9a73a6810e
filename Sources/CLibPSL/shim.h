#ifndef MOYA_CLI_LIBPSL_SHIM_H
#define MOYA_CLI_LIBPSL_SHIM_H
#include <libpsl.h>
#endif
