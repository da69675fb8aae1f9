import StoreKitCore
extension AppInfo { var commit: String { "" } }
