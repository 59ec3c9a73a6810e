// MoyaCore is Moya's programming model over two modules of its own: MoyaHTTP, the vocabulary
// (methods, headers, requests and responses, encodings, plugins, secrets; no transport), and
// MoyaTransport, the NIO `Session`. Its users keep all three, and JSON values, under
// `import MoyaCore`, as before.
@_exported import MoyaHTTP
@_exported import MoyaJSON
@_exported import MoyaTransport
