/// Everything that can go wrong with a request, as Moya names it.
public enum MoyaError: Error {
    /// The response could not be mapped to an image.
    case imageMapping(Response)
    /// The response could not be mapped to JSON.
    case jsonMapping(Response)
    /// The response could not be mapped to a string.
    case stringMapping(Response)
    /// The response could not be decoded into an object.
    case objectMapping(any Error, Response)
    /// An `Encodable` body could not be encoded.
    case encodableMapping(any Error)
    /// The status code failed validation.
    case statusCode(Response)
    /// The transport or a stub failed, with the response if one arrived.
    case underlying(any Error, Response?)
    /// The endpoint could not be turned into a request.
    case requestMapping(String)
    /// Parameters could not be encoded.
    case parameterEncoding(any Error)

    /// The response involved in the error, if any.
    public var response: Response? {
        switch self {
        case .imageMapping(let response), .jsonMapping(let response), .stringMapping(let response),
            .objectMapping(_, let response), .statusCode(let response):
            response
        case .underlying(_, let response): response
        case .encodableMapping, .requestMapping, .parameterEncoding: nil
        }
    }

    /// The error underneath, if any.
    public var underlyingError: (any Error)? {
        switch self {
        case .objectMapping(let error, _), .encodableMapping(let error), .underlying(let error, _),
            .parameterEncoding(let error):
            error
        default: nil
        }
    }

    /// One sentence saying what went wrong.
    public var errorDescription: String {
        switch self {
        case .imageMapping: "Failed to map data to an image."
        case .jsonMapping: "Failed to map data to JSON."
        case .stringMapping: "Failed to map data to a string."
        case .objectMapping: "Failed to map data to a Decodable object."
        case .encodableMapping: "Failed to encode an Encodable object into data."
        case .statusCode(let response): "Status code \(response.statusCode) did not pass validation."
        case .underlying(let error, _): "The request failed: \(error)."
        case .requestMapping(let url): "Failed to map the endpoint to a request for \(url)."
        case .parameterEncoding(let error): "Failed to encode parameters for the request: \(error)."
        }
    }
}

extension MoyaError: CustomStringConvertible {
    public var description: String { errorDescription }
}

extension Result where Success == Response, Failure == MoyaError {
    /// The response a server (or a stub) answered with, whether or not it passed validation;
    /// nil when none came.
    public var answered: Response? {
        switch self {
        case .success(let response), .failure(.statusCode(let response)): response
        case .failure: nil
        }
    }

    /// The result with `transform` applied to the response it answered with, passed or not.
    public func mapAnswered(_ transform: (Response) -> Response) -> Self {
        switch self {
        case .success(let response): .success(transform(response))
        case .failure(.statusCode(let response)): .failure(.statusCode(transform(response)))
        case .failure: self
        }
    }
}
