extension ResultsController {
    /// Stops the controller because a batch for one of its views could not be built — a state the controller
    /// never reaches unless FetchKit has a bug. The view is not left silently stale: the controller fails
    /// (``ResultsStatus/failed(_:)``, the delegate's `didFailWith`, the update sequences throw) with a
    /// ``FetchKitError/Code/inconsistency`` error, logged at error level.
    /// Returns the error it stopped the controller with.
    @discardableResult
    func failDelivery(_ error: any Error, to view: String) -> FetchKitError {
        let reason = FetchKitError.inconsistency("a batch for \(view) could not be built: \(error)")
        if !hasFailed { fail(with: reason) }
        return reason
    }
}
