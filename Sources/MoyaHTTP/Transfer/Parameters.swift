/// Parameters for a request: string keys and values that are strings, numbers, booleans,
/// arrays or nested dictionaries of those.
public typealias Parameters = [String: any Sendable]
