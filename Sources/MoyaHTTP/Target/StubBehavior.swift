/// Whether and how a request is answered from its sample instead of the network.
public enum StubBehavior: Sendable, Hashable {
    /// Send the request over the network.
    case never
    /// Answer at once with the sample.
    case immediate
    /// Answer with the sample after a delay.
    case delayed(seconds: Double)
}
