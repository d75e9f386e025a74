// FetchKitVapor's tests run with the package trait `Vapor` only.
