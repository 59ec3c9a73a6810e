/// Why a target could not be resolved for a call.
public struct ResolveError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as one sentence, with the hint after it.
    public var message: String
    /// Whether the caller's input was at fault (a usage error) rather than the spec.
    public var isUsageError: Bool
    /// Advice for the command line's user, a flag to pass (`--no-validate-args sends it
    /// anyway`): the end of `message`, which a model, who passes no flags, is not given.
    public var hint: String?

    /// A problem saying `message`, then `hint`; `isUsageError` when the caller's input was at
    /// fault.
    public init(message: String, isUsageError: Bool, hint: String? = nil) {
        self.message = hint.map { message + "; " + $0 } ?? message
        self.isUsageError = isUsageError
        self.hint = hint
    }

    /// The message without its hint.
    public var unhinted: String {
        guard let hint, message.hasSuffix("; " + hint) else { return message }
        return String(message.dropLast(hint.count + 2))
    }

    public var description: String { message }
}
