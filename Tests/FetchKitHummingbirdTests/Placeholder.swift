// FetchKitHummingbird's tests run with the package trait `Hummingbird` only.
