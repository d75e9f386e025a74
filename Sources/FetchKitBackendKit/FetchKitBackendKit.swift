// A backend imports this module alone: it brings FetchKit's model and store contract with it.
@_exported import FetchKit
