import FetchKit

extension SQLCompiler {
    /// Compiles `request` for decoding into `R`, checking that it fetches `R`'s entity.
    public func compileFetch<R: Record>(_ request: AnyFetchRequest, as type: R.Type) throws -> CompiledFetch {
        guard request.entityName == R.entity.name else {
            throw FetchKitError.recordMapping(
                entity: R.entity.name, detail: "the request fetches \(request.entityName), not \(R.entity.name)")
        }
        return try fetch(request)
    }
}
