// JSON values live in MoyaJSON, which needs no HTTP, so that MoyaJSONPath and MoyaSchema stand
// alone. The vocabulary's users keep them under `import MoyaHTTP`.
@_exported import MoyaJSON
