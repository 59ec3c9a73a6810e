#ifndef C_NO_ICU_DATA_H
#define C_NO_ICU_DATA_H

// ICU's common data for moya-cli-tools, empty: see no_icu_data.c. Nothing includes this; the
// target is linked for its one symbol.

#endif
