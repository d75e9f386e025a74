// FetchKitVapor's API is compiled with the package trait `Vapor` only.
