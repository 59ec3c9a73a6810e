import MoyaSpec
import MoyaYAML

/// One entry of a `check` run: a check to send, a flow to run, or a target that is skipped and
/// why.
public struct PlannedCheck: Sendable {
    /// What the entry runs.
    public enum Subject: Sendable {
        /// A target's check; for a target without checks, an implicit one with no assertions,
        /// so that the target's own validation decides.
        case check(target: TargetSpec, check: CheckSpec)
        /// A flow, run step by step.
        case flow(FlowSpec)
    }

    /// The service it belongs to.
    public let service: ServiceSpec
    /// What it runs.
    public let subject: Subject
    /// Why the entry is not run, if it is not.
    public let skipReason: String?

    /// An entry of a plan.
    public init(service: ServiceSpec, subject: Subject, skipReason: String?) {
        self.service = service
        self.subject = subject
        self.skipReason = skipReason
    }

    /// `service.target` or `service.flow`.
    public var qualifiedName: String {
        switch subject {
        case .check(let target, _): "\(service.name).\(target.name)"
        case .flow(let flow): "\(service.name).\(flow.name)"
        }
    }

    /// The check's name, empty for an implicit check; a flow's is "flow".
    public var name: String {
        switch subject {
        case .check(_, let check): check.name
        case .flow: "flow"
        }
    }

    /// The test case's name in reports: the check's, else the target's, or the flow's.
    public var caseName: String {
        switch subject {
        case .check(let target, let check): check.name.isEmpty ? target.name : check.name
        case .flow(let flow): flow.name
        }
    }

    /// The line that declares the check or flow.
    public var mark: Mark {
        switch subject {
        case .check(_, let check): check.mark
        case .flow(let flow): flow.mark
        }
    }

    /// `service.target` and the check's name, or `service.flow (flow)`.
    public var title: String {
        switch subject {
        case .check(_, let check): check.name.isEmpty ? qualifiedName : "\(qualifiedName): \(check.name)"
        case .flow: "\(qualifiedName) (flow)"
        }
    }

    /// What sharding hashes: stable across runs and machines.
    public var identity: String {
        switch subject {
        case .check(let target, let check): "\(service.name).\(target.name)/\(check.name)"
        case .flow(let flow): "\(service.name).\(flow.name)/flow"
        }
    }
}
