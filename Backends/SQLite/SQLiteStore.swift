import FetchKit
