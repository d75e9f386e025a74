// `import FetchKitMacros` is all an app needs: FetchKit comes with it.
@_exported import FetchKit
