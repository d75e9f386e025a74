/// A database connection that a ``ConnectionThread`` owns: used only on that thread, closed there.
public protocol DriverConnection: AnyObject, SendableMetatype {
    /// Closes the connection; it is not used afterwards.
    func close()
}
