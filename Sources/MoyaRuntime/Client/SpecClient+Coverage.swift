import MoyaCoverage
import MoyaHTTP
import MoyaSpec

extension SpecClient {
    /// Counts every delivery of this client into `recorder`: its target, the params it bound
    /// (declared defaults included, as they are sent), its JSON body and the status that came
    /// back.
    public mutating func counting(into recorder: CoverageRecorder) {
        heard = { target, response in
            recorder.record(
                service: target.service, target: target.name, status: response?.statusCode,
                params: target.binding.values
            ) {
                guard case .data(let data)? = response?.request?.body,
                    let type = response?.request?.headers["Content-Type"], JSONValue.isJSONMediaType(type)
                else { return nil }
                return try? JSONValue(parsing: data)
            }
        }
    }
}
