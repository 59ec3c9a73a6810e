/// Where a run learns that the user asked it to stop (Ctrl-C and its kin): checks and flows
/// start nothing new after that, and flows still run their `finally` steps.
public protocol InterruptSource: Sendable {
    /// The first signal that arrived, if one did.
    var arrived: Int32? { get }
}
