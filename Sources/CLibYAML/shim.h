#ifndef MOYA_CLI_LIBYAML_SHIM_H
#define MOYA_CLI_LIBYAML_SHIM_H
#include <yaml.h>
#endif
