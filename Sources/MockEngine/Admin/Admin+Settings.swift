import JSONKit

extension Admin {
    /// WireMock's global settings (`GET`/`PUT /__admin/settings`): a delay for every stub
    /// answer whose stub sets none of its own, and free JSON in `extended`. They stay as they
    /// are across ``reset()`` (as in WireMock).
    public var settings: GlobalSettings {
        get { engine.settings.current }
        set { _ = engine.settings.update { $0 = newValue } }
    }

    /// Changes the settings by a body of the admin API, atomically; nothing changes when the
    /// body has a problem.
    package func changeSettings(_ body: JSONValue, _ change: GlobalSettings.Change) throws(AdminError) -> GlobalSettings
    {
        try engine.settings.update { (current) throws(AdminError) in
            current = try GlobalSettings.decode(body, change, over: current)
        }
    }
}
