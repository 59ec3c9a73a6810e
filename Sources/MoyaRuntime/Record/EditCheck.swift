import MoyaSpec

/// How `--record` and `--save` check the text they are about to write: compiled as the file it
/// replaces, its target whole. The spec compiler is handed in (`EditCheck(compiler)`, in
/// MoyaCLI), so that the runtime sends what was compiled and compiles nothing itself.
public struct EditCheck: Sendable {
    /// Compiles `text` as `file`'s, keeping `target`; with `checkingSamples`, its samples are
    /// held to their schemas, as `validate` holds them.
    public let compile:
        @Sendable (_ text: [UInt8], _ file: String, _ target: String, _ checkingSamples: Bool) throws(SpecError) ->
            ServiceSpec

    public init(
        compile:
            @escaping @Sendable (_ text: [UInt8], _ file: String, _ target: String, _ checkingSamples: Bool)
            throws(SpecError) -> ServiceSpec
    ) {
        self.compile = compile
    }
}
