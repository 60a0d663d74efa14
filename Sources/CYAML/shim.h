#ifndef CYAML_SHIM_H
#define CYAML_SHIM_H
// libyaml (Debian libyaml-dev): the YAML 1.1/1.2 parser YAMLKit reads events from.
#include <yaml.h>
#endif
