#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Wraps any target, so that one provider can send targets of different types.
public struct MultiTarget: TargetType {
    /// The wrapped target.
    public let target: any TargetType

    /// Wraps `target`.
    public init(_ target: any TargetType) {
        self.target = target
    }

    public var baseURL: URL { target.baseURL }
    public var path: String { target.path }
    public var method: Method { target.method }
    public var task: Task { target.task }
    public var headers: [String: String]? { target.headers }
    public var sampleData: Data { target.sampleData }
    public var validationType: ValidationType { target.validationType }
}
