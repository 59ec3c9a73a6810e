// JSON values live in MoyaJSON, which needs no transport, so that MoyaJSONPath and MoyaSchema
// stand without NIO. MoyaCore's users keep them under `import MoyaCore`, as before.
@_exported import MoyaJSON
