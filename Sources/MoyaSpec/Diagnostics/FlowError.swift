/// Why a step could not be made or run, as one sentence.
public struct FlowError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}
