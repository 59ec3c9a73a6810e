// ICU's common data, empty, for moya-cli-tools.
//
// The full Foundation that OpenAPIKit imports links ICU, and with it ICU's locale, collation,
// time-zone and break-iterator data: 34 MB, a third of what `make install` installs, in one
// archive member of lib_FoundationICU.a that defines only `icudt76_dat`. moya-cli-tools never
// reads it (no `udata_open` in an import, an export, an Arazzo import or a failing one;
// bench/RESULTS.md, "Installed size"): Swift's strings carry their own Unicode tables. This
// object defines the symbol first, so the linker does not take that member: ICU sees a valid
// package with no items, and a lookup fails with ICU's own missing-resource error instead of
// finding data.
//
// The name carries ICU's major version. A toolchain with another ICU links its data again (a
// larger program, nothing broken); `.ci/run` compares the installed tools' imports with the
// debug build's, whose Foundation has all of its data.

#include <stdint.h>

// A common data package (ICU's `udata.h`, "CmnD" format 1): the data header, padded to 32
// bytes, then a table of contents whose count is zero.
__attribute__((aligned(16), used)) const uint8_t icudt76_dat[48] = {
    // MappedData: headerSize 32, magic 0xda 0x27.
    32, 0, 0xda, 0x27,
    // UDataInfo: size 20, reserved; little-endian, ASCII family, 2-byte UChar, reserved.
    20, 0, 0, 0, 0, 0, 2, 0,
    // dataFormat "CmnD", formatVersion 1.0.0.0, dataVersion 3.0.0.0 (what ICU 76 writes).
    'C', 'm', 'n', 'D', 1, 0, 0, 0, 3, 0, 0, 0,
    // Padding to headerSize.
    0, 0, 0, 0, 0, 0, 0, 0,
    // The table of contents: no items.
    0, 0, 0, 0,
};
