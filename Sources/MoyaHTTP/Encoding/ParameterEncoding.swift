/// Places a set of parameters into a request: its query, its body, or anywhere else.
public protocol ParameterEncoding: Sendable {
    /// Returns `request` with `parameters` encoded into it.
    func encode(_ request: Request, with parameters: Parameters?) throws -> Request
}

/// Why a parameter encoding could not encode its parameters.
public struct ParameterEncodingError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as one sentence.
    public let reason: String

    /// Creates an encoding error.
    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
