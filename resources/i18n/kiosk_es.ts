<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es_AR">
<context>
    <name>AdminForm</name>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="44"/>
        <source>This field is needed.</source>
        <translation>Este campo es obligatorio.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="45"/>
        <source>Type a number, like 1,5.</source>
        <translation>Escriba un número, como 1,5.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="46"/>
        <source>Type a whole number, digits only.</source>
        <translation>Escriba un número entero, solo dígitos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="47"/>
        <source>It must be greater than zero.</source>
        <translation>Tiene que ser mayor que cero.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="48"/>
        <source>It must be zero or more.</source>
        <translation>Tiene que ser cero o más.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="49"/>
        <source>The multiplier is at least 1 (1 = no bonus, 1,5 = 50% more points).</source>
        <translation>El multiplicador es 1 como mínimo (1 = sin bono, 1,5 = 50% más de puntos).</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="52"/>
        <source>That is too large. Check it.</source>
        <translation>Es demasiado grande. Revíselo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="53"/>
        <source>That is too small. Check it.</source>
        <translation>Es demasiado chico. Revíselo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="54"/>
        <source>Type a colour like #1d4ed8 or #abc.</source>
        <translation>Escriba un color como #1d4ed8 o #abc.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="55"/>
        <source>Too long. Shorten it.</source>
        <translation>Es demasiado largo. Acórtelo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="56"/>
        <source>Not a valid email (like name@example.com).</source>
        <translation>No es un email válido (como nombre@ejemplo.com).</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="59"/>
        <source>A password has at least 8 characters. Or leave it empty.</source>
        <translation>La contraseña tiene al menos 8 caracteres. También puede dejarla vacía.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="62"/>
        <source>Type a full web address starting with https://, or leave it empty.</source>
        <translation>Escriba una dirección web completa que empiece con https://, o déjela vacía.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="65"/>
        <source>Give at least one price: for clients without level or for a level.</source>
        <translation>Indique al menos un precio: para clientes sin nivel o para un nivel.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="68"/>
        <source>Type category numbers separated by commas, like 1, 5.</source>
        <translation>Escriba números de categoría separados por comas, como 1, 5.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="71"/>
        <source>The same value appears twice.</source>
        <translation>El mismo valor aparece dos veces.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="72"/>
        <source>Already used by another record.</source>
        <translation>Ya lo usa otro registro.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="73"/>
        <source>This cannot be changed.</source>
        <translation>Esto no se puede cambiar.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="74"/>
        <source>The email cannot be changed: the client already entered the platform.</source>
        <translation>El email no se puede cambiar: el cliente ya ingresó a la plataforma.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="77"/>
        <source>This reward&apos;s stock comes from its coupons, loaded in the merchant panel. Choose “Leave the stock as it is” and save again.</source>
        <translation>El stock de este premio sale de sus cupones, cargados en el panel del comercio. Elija “Dejar el stock como está” y vuelva a guardar.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="82"/>
        <source>No permission group has this number. Check it in the merchant panel, or leave it empty.</source>
        <translation>Ningún grupo de permisos tiene este número. Revíselo en el panel del comercio o déjelo vacío.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="86"/>
        <source>This cannot be emptied from the kiosk. Type a new value.</source>
        <translation>Esto no se puede vaciar desde la terminal. Escriba un valor nuevo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="89"/>
        <source>A DNI has 6 to 8 digits; a passport 5 to 20 letters and digits.</source>
        <translation>Un DNI tiene de 6 a 8 dígitos; un pasaporte, de 5 a 20 letras y números.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="92"/>
        <source>A phone number has 6 to 15 digits.</source>
        <translation>Un teléfono tiene de 6 a 15 dígitos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="93"/>
        <source>Choose at least one reason.</source>
        <translation>Elija al menos un motivo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="94"/>
        <source>Choose at least one branch: without one the operator cannot work anywhere.</source>
        <translation>Elija al menos una sucursal: sin ninguna, el operador no puede trabajar en ningún lado.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="97"/>
        <source>The service did not accept this. Check it.</source>
        <translation>El servicio no lo aceptó. Revíselo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="99"/>
        <source>The service refused data this form does not show (%1). Call IT.</source>
        <translation>El servicio rechazó datos que este formulario no muestra (%1). Llame a soporte técnico.</translation>
    </message>
</context>
<context>
    <name>AdminList</name>
    <message>
        <location filename="../../kiosk/ui/admin/list_view.py" line="82"/>
        <source>Search</source>
        <translation>Buscar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/list_view.py" line="98"/>
        <location filename="../../kiosk/ui/admin/list_view.py" line="99"/>
        <source>Refresh</source>
        <translation>Actualizar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/list_view.py" line="109"/>
        <source>Sort and filter</source>
        <translation>Ordenar y filtrar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/list_view.py" line="128"/>
        <source>Sort by</source>
        <translation>Ordenar por</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/list_view.py" line="141"/>
        <source>Each row&apos;s tooltip and detail show them.</source>
        <translation>Las muestran la ayuda emergente y el detalle de cada fila.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/list_view.py" line="177"/>
        <source>The list could not be loaded.</source>
        <translation>No se pudo cargar la lista.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/list_view.py" line="180"/>
        <source>Try again</source>
        <translation>Reintentar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/list_view.py" line="195"/>
        <source>Previous</source>
        <translation>Anterior</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/list_view.py" line="196"/>
        <source>Next</source>
        <translation>Siguiente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/list_view.py" line="238"/>
        <source>Hidden for lack of room: %1</source>
        <translation>Ocultas por falta de espacio: %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/list_view.py" line="319"/>
        <source>↑ Ascending</source>
        <translation>↑ Ascendente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/list_view.py" line="319"/>
        <source>↓ Descending</source>
        <translation>↓ Descendente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/list_view.py" line="376"/>
        <source>Nothing matches. Clear the search or change the filters.</source>
        <translation>No hay coincidencias. Borre la búsqueda o cambie los filtros.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/list_view.py" line="391"/>
        <source>%1–%2 of %3</source>
        <translation>%1–%2 de %3</translation>
    </message>
</context>
<context>
    <name>AdminSections</name>
    <message>
        <location filename="../../kiosk/ui/admin/__init__.py" line="22"/>
        <source>Point items</source>
        <translation>Ítems de puntos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/__init__.py" line="23"/>
        <source>Rewards</source>
        <translation>Premios</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/__init__.py" line="24"/>
        <source>Levels</source>
        <translation>Niveles</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/__init__.py" line="25"/>
        <source>Operators</source>
        <translation>Operadores</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/__init__.py" line="26"/>
        <source>Clients</source>
        <translation>Clientes</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/__init__.py" line="27"/>
        <source>Exchanges</source>
        <translation>Canjes</translation>
    </message>
</context>
<context>
    <name>AmountEntry</name>
    <message>
        <location filename="../../kiosk/ui/widgets/amount_entry.py" line="37"/>
        <source>The largest amount is %1: that digit was not added.</source>
        <translation>El monto máximo es %1: no se agregó el dígito.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/amount_entry.py" line="43"/>
        <source>That is as many characters as fit.</source>
        <translation>No entran más caracteres.</translation>
    </message>
</context>
<context>
    <name>AmountPad</name>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="46"/>
        <source>Purchase amount</source>
        <translation>Monto de la compra</translation>
    </message>
</context>
<context>
    <name>BasketRow</name>
    <message>
        <location filename="../../kiosk/ui/screens/points/items.py" line="237"/>
        <source>Remove one %1</source>
        <translation>Quitar una unidad de %1</translation>
    </message>
</context>
<context>
    <name>BasketView</name>
    <message>
        <location filename="../../kiosk/ui/screens/points/items.py" line="262"/>
        <location filename="../../kiosk/ui/screens/points/items.py" line="263"/>
        <source>Empty the basket</source>
        <translation>Vaciar el carrito</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/items.py" line="265"/>
        <source>Tap the items of the purchase.</source>
        <translation>Toque los ítems de la compra.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/items.py" line="323"/>
        <source>Basket: %1 of %2 units</source>
        <translation>Carrito: %1 de %2 unidades</translation>
    </message>
</context>
<context>
    <name>BranchSection</name>
    <message>
        <location filename="../../kiosk/ui/manager/settings_branch.py" line="41"/>
        <source>Branch and counter</source>
        <translation>Sucursal y mostrador</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_branch.py" line="43"/>
        <source>The branch this kiosk credits for, its validation QR, and the point item buttons of the Points screen.</source>
        <translation>La sucursal para la que acredita esta terminal, su QR de validación y los botones de ítems de puntos de la pantalla Puntos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_branch.py" line="52"/>
        <source>Load branches</source>
        <translation>Cargar sucursales</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_branch.py" line="84"/>
        <source>Move up</source>
        <translation>Subir</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_branch.py" line="85"/>
        <source>Move down</source>
        <translation>Bajar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_branch.py" line="90"/>
        <source>Checked items show as buttons on the Points screen, in this order.</source>
        <translation>Los ítems marcados aparecen como botones en la pantalla Puntos, en este orden.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_branch.py" line="107"/>
        <source>Branch</source>
        <translation>Sucursal</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_branch.py" line="108"/>
        <source>Validation QR</source>
        <translation>QR de validación</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_branch.py" line="109"/>
        <source>Counter buttons</source>
        <translation>Botones del mostrador</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_branch.py" line="113"/>
        <source>Load the branches this key opens.</source>
        <translation>Cargue las sucursales de esta clave.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_branch.py" line="133"/>
        <source>Choose the branch</source>
        <translation>Elija la sucursal</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_branch.py" line="150"/>
        <source>type not given</source>
        <translation>tipo sin indicar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_branch.py" line="151"/>
        <source>no address given</source>
        <translation>sin dirección</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_branch.py" line="152"/>
        <source>%1 · %2 · %3</source>
        <translation>%1 · %2 · %3</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_branch.py" line="158"/>
        <source>None: the Code screen stays empty</source>
        <translation>Ninguno: la pantalla Código queda vacía</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_branch.py" line="174"/>
        <source>Automatic: %1 (the branch&apos;s first)</source>
        <translation>Automático: %1 (el primero de la sucursal)</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_branch.py" line="186"/>
        <source> (new code every %1 s)</source>
        <translation> (código nuevo cada %1 s)</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_branch.py" line="192"/>
        <source>%1 pts</source>
        <translation>%1 pts</translation>
    </message>
</context>
<context>
    <name>CancelSheet</name>
    <message>
        <location filename="../../kiosk/ui/screens/today/text.py" line="56"/>
        <source>Cancel the credit</source>
        <translation>Anular la acreditación</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/text.py" line="14"/>
        <source>the client</source>
        <translation>el cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/text.py" line="18"/>
        <source>Cancel the credit of %1 points to %2 (ticket %3)?</source>
        <translation>¿Anular la acreditación de %1 puntos a %2 (ticket %3)?</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/text.py" line="22"/>
        <source>Cancel the credit of %1 points to %2?</source>
        <translation>¿Anular la acreditación de %1 puntos a %2?</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/text.py" line="27"/>
        <source>Cancel the credit for the sale of %1 to %2 (ticket %3)?</source>
        <translation>¿Anular la acreditación de la venta de %1 a %2 (ticket %3)?</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/text.py" line="31"/>
        <source>Cancel the credit for the sale of %1 to %2?</source>
        <translation>¿Anular la acreditación de la venta de %1 a %2?</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/text.py" line="38"/>
        <source>Cancel the credit of ticket %3 to %2?</source>
        <translation>¿Anular la acreditación del ticket %3 a %2?</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/text.py" line="40"/>
        <source>Cancel this credit to %2?</source>
        <translation>¿Anular esta acreditación a %2?</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/text.py" line="44"/>
        <source>This credit has not reached the service yet: it will not be sent, and no points change.</source>
        <translation>Esta acreditación todavía no llegó al servicio: no se enviará y los puntos no cambian.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/text.py" line="50"/>
        <source>The points are taken back from the client. This cannot be undone.</source>
        <translation>Se le descuentan los puntos al cliente. No se puede deshacer.</translation>
    </message>
</context>
<context>
    <name>ClientCard</name>
    <message>
        <location filename="../../kiosk/ui/widgets/client_card.py" line="51"/>
        <source>Suspended</source>
        <translation>Suspendido</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/client_card.py" line="71"/>
        <source>Change client</source>
        <translation>Cambiar cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/client_card.py" line="154"/>
        <source>Client #%1</source>
        <translation>Cliente n.º %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/client_card.py" line="156"/>
        <source>No level</source>
        <translation>Sin nivel</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/client_card.py" line="159"/>
        <source>%1 pts available</source>
        <translation>%1 pts disponibles</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/client_card.py" line="163"/>
        <source>Unverified client</source>
        <translation>Cliente sin verificar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/client_card.py" line="165"/>
        <source>Not verified (offline)</source>
        <translation>Sin verificar (sin conexión)</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/client_card.py" line="166"/>
        <source>Points are credited when the connection returns</source>
        <translation>Los puntos se acreditan cuando vuelva la conexión</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/client_card.py" line="169"/>
        <source>%1 accumulated</source>
        <translation>%1 acumulados</translation>
    </message>
</context>
<context>
    <name>ClientPanel</name>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="29"/>
        <source>The client asked for it</source>
        <translation>Lo pidió el cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="30"/>
        <source>Duplicate client</source>
        <translation>Cliente duplicado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="31"/>
        <source>Wrong email</source>
        <translation>Email equivocado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="32"/>
        <source>Another reason</source>
        <translation>Otro motivo</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="67"/>
        <source>Save changes</source>
        <translation>Guardar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="67"/>
        <source>Schedule removal</source>
        <translation>Dar de baja</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="75"/>
        <source>Only the fields you change are sent.</source>
        <translation>Solo se envían los campos que cambie.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="77"/>
        <source>Email locked: the client already entered the platform.</source>
        <translation>Email bloqueado: el cliente ya ingresó a la plataforma.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="82"/>
        <source>name@example.com</source>
        <translation>nombre@ejemplo.com</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="86"/>
        <source>Internal notes, never shown to the client</source>
        <translation>Notas internas, nunca se le muestran al cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="87"/>
        <source>First names</source>
        <translation>Nombres</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="88"/>
        <source>Last names</source>
        <translation>Apellidos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="89"/>
        <source>Email</source>
        <translation>Email</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="90"/>
        <source>Document</source>
        <translation>Documento</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="91"/>
        <source>Phone</source>
        <translation>Teléfono</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="92"/>
        <source>Affiliate card</source>
        <translation>Tarjeta de socio</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="93"/>
        <source>Notes</source>
        <translation>Notas</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="94"/>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="114"/>
        <source>Suspend</source>
        <translation>Suspender</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="109"/>
        <source>Client #%1</source>
        <translation>Cliente n.º %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients_form.py" line="114"/>
        <source>Suspended</source>
        <translation>Suspendido</translation>
    </message>
</context>
<context>
    <name>ClientsSection</name>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="57"/>
        <location filename="../../kiosk/ui/admin/clients.py" line="84"/>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="63"/>
        <source>Email</source>
        <translation>Email</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="65"/>
        <source>Document</source>
        <translation>Documento</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="67"/>
        <location filename="../../kiosk/ui/admin/clients.py" line="143"/>
        <source>Level</source>
        <translation>Nivel</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="69"/>
        <location filename="../../kiosk/ui/admin/clients.py" line="85"/>
        <source>Points</source>
        <translation>Puntos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="75"/>
        <location filename="../../kiosk/ui/admin/clients.py" line="86"/>
        <source>Last operation</source>
        <translation>Última operación</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="80"/>
        <source>State</source>
        <translation>Estado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="83"/>
        <source>Most points first</source>
        <translation>Mayor puntaje</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="87"/>
        <source>Date joined</source>
        <translation>Fecha de alta</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="89"/>
        <source>Search by name, email, document, phone or card</source>
        <translation>Buscar por nombre, email, documento, teléfono o tarjeta</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="90"/>
        <source>No clients yet. Clients join at the counter or on the platform.</source>
        <translation>Todavía no hay clientes. Los clientes se suman en el mostrador o en la plataforma.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="114"/>
        <source>Clients</source>
        <translation>Clientes</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="118"/>
        <source>Suspended</source>
        <translation>Suspendido</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="119"/>
        <source>Active</source>
        <translation>Activo</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="141"/>
        <source>All levels</source>
        <translation>Todos los niveles</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="204"/>
        <source>Nothing changed.</source>
        <translation>No cambió nada.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="216"/>
        <source>Client saved: %1.</source>
        <translation>Cliente guardado: %1.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="227"/>
        <source>Suspend %1?</source>
        <translation>¿Suspender a %1?</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="229"/>
        <source>The client stops earning points: credits for them are refused at every counter. Their points and exchanges stay. The kiosk cannot reactivate a client (the merchant panel can).</source>
        <translation>El cliente deja de sumar puntos: sus acreditaciones se rechazan en todos los mostradores. Sus puntos y canjes se conservan. La terminal no puede reactivar a un cliente (el panel del comercio sí).</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="233"/>
        <source>Suspend client</source>
        <translation>Suspender cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="245"/>
        <source>Schedule the removal of %1?</source>
        <translation>¿Programar la baja de %1?</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="247"/>
        <source>The client stops appearing at once. After %1 days their personal data is erased for good. Until then only the merchant panel can restore them; the kiosk cannot. Choose at least one reason:</source>
        <translation>El cliente deja de aparecer en el acto. A los %1 días, sus datos personales se borran para siempre. Hasta entonces, solo el panel del comercio puede restaurarlo; la terminal no. Elija al menos un motivo:</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="251"/>
        <source>Schedule removal</source>
        <translation>Dar de baja</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="275"/>
        <source>%1 is suspended: no more points until reactivated in the panel.</source>
        <translation>Cliente suspendido: %1. No suma más puntos hasta que se lo reactive en el panel.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/clients.py" line="289"/>
        <source>Removal of %1 scheduled: out of the lists now, personal data erased in %2 days.</source>
        <translation>Baja de %1 programada: ya no figura en las listas y sus datos personales se borran en %2 días.</translation>
    </message>
</context>
<context>
    <name>CodePanel</name>
    <message>
        <location filename="../../kiosk/ui/screens/code/panel.py" line="122"/>
        <source>Changes in %1</source>
        <translation>Cambia en %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/code/panel.py" line="124"/>
        <source>Refreshing…</source>
        <translation>Actualizando…</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/code/panel.py" line="124"/>
        <source>Getting the new code.</source>
        <translation>Obteniendo el código nuevo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/code/panel.py" line="126"/>
        <source>Reading the code…</source>
        <translation>Leyendo el código…</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/code/panel.py" line="128"/>
        <source>The service lets the kiosk read the code once every %1 s.</source>
        <translation>El servicio deja que la terminal lea el código una vez cada %1 s.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/code/panel.py" line="131"/>
        <source>New code in %1</source>
        <translation>Código nuevo en %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/code/panel.py" line="135"/>
        <source>This branch has no validation QR</source>
        <translation>Esta sucursal no tiene QR de validación</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/code/panel.py" line="136"/>
        <source>Ask a manager to enable the rotating code on a QR of this branch.</source>
        <translation>Pida al encargado que active el código rotativo en un QR de esta sucursal.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/code/panel.py" line="140"/>
        <source>Trying again now…</source>
        <translation>Reintentando ahora…</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/code/panel.py" line="142"/>
        <source>The kiosk tries again by itself in %1.</source>
        <translation>La terminal vuelve a intentar sola en %1.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/code/panel.py" line="144"/>
        <source>Code unavailable</source>
        <translation>Código no disponible</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/code/panel.py" line="152"/>
        <source>The branch&apos;s kiosks read the code too often; the service asked to wait.</source>
        <translation>Las terminales de la sucursal leyeron el código demasiado seguido; el servicio pidió esperar.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/code/panel.py" line="155"/>
        <source>No connection to the service.</source>
        <translation>Sin conexión con el servicio.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/code/panel.py" line="157"/>
        <source>The service did not give the code.</source>
        <translation>El servicio no entregó el código.</translation>
    </message>
</context>
<context>
    <name>CodeScreen</name>
    <message>
        <location filename="../../kiosk/ui/screens/code/screen.py" line="52"/>
        <source>The code changes by itself. Clients read it from this screen.</source>
        <translation>El código cambia solo. Los clientes lo leen de esta pantalla.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/code/screen.py" line="82"/>
        <source>Code</source>
        <translation>Código</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/code/screen.py" line="151"/>
        <source>QR %1</source>
        <translation>QR %1</translation>
    </message>
</context>
<context>
    <name>ConfirmSheet</name>
    <message>
        <location filename="../../kiosk/ui/widgets/confirm_sheet.py" line="104"/>
        <source>Back</source>
        <translation>Volver</translation>
    </message>
</context>
<context>
    <name>ConnectionSection</name>
    <message>
        <location filename="../../kiosk/ui/manager/settings_connection.py" line="39"/>
        <source>Connection</source>
        <translation>Conexión</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_connection.py" line="40"/>
        <source>Where this kiosk sends credits, and the key that opens the program.</source>
        <translation>Adónde envía las acreditaciones esta terminal y la clave que da acceso al programa.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_connection.py" line="76"/>
        <source>Environment</source>
        <translation>Entorno</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_connection.py" line="77"/>
        <source>Production address</source>
        <translation>Dirección de producción</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_connection.py" line="78"/>
        <source>QA address</source>
        <translation>Dirección de QA</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_connection.py" line="79"/>
        <source>API key</source>
        <translation>API key</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_connection.py" line="96"/>
        <source>Paste or type the API key</source>
        <translation>Pegue o escriba la API key</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_connection.py" line="100"/>
        <source>Check and save key</source>
        <translation>Verificar y guardar la clave</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_connection.py" line="103"/>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_connection.py" line="155"/>
        <source>Replace key</source>
        <translation>Reemplazar la clave</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_connection.py" line="155"/>
        <source>Enter key</source>
        <translation>Ingresar la clave</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_connection.py" line="158"/>
        <source>A key is stored for %1 in this computer&apos;s keyring. It is never shown.</source>
        <translation>Hay una clave guardada para %1 en el almacén de claves de esta computadora. Nunca se muestra.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_connection.py" line="160"/>
        <source>No key is stored for %1 yet.</source>
        <translation>Todavía no hay una clave guardada para %1.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_connection.py" line="162"/>
        <source>Enter the %1 address first.</source>
        <translation>Primero ingrese la dirección de %1.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_connection.py" line="166"/>
        <source>Training needs no key.</source>
        <translation>El modo práctica no necesita clave.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_connection.py" line="184"/>
        <source>The key is checked at %1, the address IT set for %2.</source>
        <translation>La clave se verifica en %1, la dirección que IT definió para %2.</translation>
    </message>
</context>
<context>
    <name>CounterSection</name>
    <message>
        <location filename="../../kiosk/ui/manager/settings_counter.py" line="16"/>
        <source>Counter</source>
        <translation>Mostrador</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_counter.py" line="18"/>
        <source>A new language or theme applies as soon as it is saved: the counter starts again with it, and manager mode locks.</source>
        <translation>Un idioma o tema nuevo se aplica apenas se guarda: el mostrador se reinicia con él y el modo encargado se bloquea.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_counter.py" line="23"/>
        <location filename="../../kiosk/ui/manager/settings_counter.py" line="24"/>
        <source>seconds</source>
        <translation>segundos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_counter.py" line="32"/>
        <source>Counter idle time</source>
        <translation>Inactividad del mostrador</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_counter.py" line="34"/>
        <source>Manager mode locks after</source>
        <translation>Inactividad del modo encargado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_counter.py" line="36"/>
        <source>Language</source>
        <translation>Idioma</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_counter.py" line="37"/>
        <source>Theme</source>
        <translation>Tema</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_counter.py" line="41"/>
        <source>Without a touch for this long, the counter clears the client and goes back to Identify.</source>
        <translation>Si nadie toca la pantalla durante este tiempo, el mostrador quita al cliente y vuelve a Identificar.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_counter.py" line="45"/>
        <source>Without a touch for this long, manager mode locks again.</source>
        <translation>Si nadie toca la pantalla durante este tiempo, el modo encargado se vuelve a bloquear.</translation>
    </message>
</context>
<context>
    <name>CounterStatusBar</name>
    <message>
        <location filename="../../kiosk/ui/widgets/status_bar.py" line="84"/>
        <source>Branch %1</source>
        <translation>Sucursal %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/status_bar.py" line="92"/>
        <source>Online</source>
        <translation>En línea</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/status_bar.py" line="95"/>
        <source>No connection</source>
        <translation>Sin conexión</translation>
    </message>
    <message numerus="yes">
        <location filename="../../kiosk/ui/widgets/status_bar.py" line="107"/>
        <source>%n pending</source>
        <translation>
            <numerusform>%n pendiente</numerusform>
            <numerusform>%n pendientes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../kiosk/ui/widgets/status_bar.py" line="109"/>
        <source>%n refused</source>
        <translation>
            <numerusform>%n rechazada</numerusform>
            <numerusform>%n rechazadas</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/status_bar.py" line="111"/>
        <source>waiting over 24 h: call a manager</source>
        <translation>esperando más de 24 h: llame a un encargado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/status_bar.py" line="46"/>
        <source>Tap to see the pending operations</source>
        <translation>Toque para ver las operaciones pendientes</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/status_bar.py" line="127"/>
        <source>Working…</source>
        <translation>Procesando…</translation>
    </message>
</context>
<context>
    <name>CounterView</name>
    <message>
        <location filename="../../kiosk/ui/main_window.py" line="385"/>
        <source>This client is suspended: they cannot earn or use points.</source>
        <translation>Este cliente está suspendido: no puede sumar ni usar puntos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/main_window.py" line="387"/>
        <source>Identify a client first</source>
        <translation>Primero identifique a un cliente</translation>
    </message>
</context>
<context>
    <name>CreditResultView</name>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="196"/>
        <source>New sale</source>
        <translation>Nueva venta</translation>
    </message>
    <message numerus="yes">
        <location filename="../../kiosk/ui/screens/points/panels.py" line="229"/>
        <source>%n units</source>
        <translation>
            <numerusform>%n unidad</numerusform>
            <numerusform>%n unidades</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="231"/>
        <source>Ticket %1</source>
        <translation>Ticket %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="237"/>
        <source>This ticket was already credited</source>
        <translation>Este ticket ya se acreditó</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="239"/>
        <source>No new points were given.</source>
        <translation>No se dieron puntos nuevos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="244"/>
        <source>+%1 points</source>
        <translation>+%1 puntos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="246"/>
        <source>Points credited</source>
        <translation>Puntos acreditados</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="250"/>
        <source>New balance: %1 points</source>
        <translation>Saldo nuevo: %1 puntos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="255"/>
        <source>Credited. The new balance shows on the next search.</source>
        <translation>Acreditado. El saldo nuevo aparece en la próxima búsqueda.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="257"/>
        <source>confirmed after a lost answer, credited once</source>
        <translation>confirmado tras una respuesta perdida, acreditado una sola vez</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="261"/>
        <source>The service credited another client account (#%1), not this client. Call a manager to check where the points went.</source>
        <translation>El servicio acreditó en otra cuenta de cliente (#%1), no en la de este cliente. Llame a un encargado para revisar dónde fueron los puntos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="271"/>
        <source>New level: %1</source>
        <translation>Nuevo nivel: %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="271"/>
        <source>No level now</source>
        <translation>Ahora sin nivel</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="279"/>
        <source>Saved: the credit will be sent automatically.</source>
        <translation>Guardado: la acreditación se enviará automáticamente.</translation>
    </message>
    <message numerus="yes">
        <location filename="../../kiosk/ui/screens/points/panels.py" line="281"/>
        <source>%n pending.</source>
        <translation>
            <numerusform>%n pendiente.</numerusform>
            <numerusform>%n pendientes.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="284"/>
        <source>About %1 points, credited once it is sent.</source>
        <translation>Unos %1 puntos, acreditados cuando se envíe.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="289"/>
        <source>Reference %1</source>
        <translation>Referencia %1</translation>
    </message>
</context>
<context>
    <name>EmptyPage</name>
    <message>
        <location filename="../../kiosk/ui/screens/identify/parts.py" line="71"/>
        <source>Scan or type the client&apos;s email or DNI</source>
        <translation>Escanee o escriba el email o DNI del cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/parts.py" line="75"/>
        <source>Press Enter to search. A DNI barcode can be scanned straight into the field.</source>
        <translation>Presione Enter para buscar. El código de barras del DNI se puede escanear directo en el campo.</translation>
    </message>
</context>
<context>
    <name>EnrollPanel</name>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="40"/>
        <source>Type an email or a document number.</source>
        <translation>Escriba un email o un número de documento.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="43"/>
        <source>Not a valid email (like name@example.com).</source>
        <translation>No es un email válido (como nombre@ejemplo.com).</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="46"/>
        <source>This email is too long: at most 64 characters before the @ and 254 in all.</source>
        <translation>Este email es demasiado largo: hasta 64 caracteres antes de la @ y 254 en total.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="50"/>
        <source>A DNI has 7 or 8 digits, without dots.</source>
        <translation>Un DNI tiene 7 u 8 dígitos, sin puntos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="53"/>
        <source>A passport has 6 to 9 letters and digits.</source>
        <translation>Un pasaporte tiene de 6 a 9 letras y números.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="56"/>
        <source>The service does not accept this document. Check it and its type.</source>
        <translation>El servicio no acepta este documento. Revise el número y el tipo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="59"/>
        <source>Not a date. Type it like %1.</source>
        <translation>No es una fecha. Escríbala como %1.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="60"/>
        <source>The birthday cannot be in the future.</source>
        <translation>La fecha de nacimiento no puede ser futura.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="63"/>
        <source>The client is younger than the program&apos;s minimum age.</source>
        <translation>El cliente no tiene la edad mínima del programa.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="66"/>
        <source>A phone number has 6 to 15 digits.</source>
        <translation>Un teléfono tiene de 6 a 15 dígitos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="69"/>
        <source>Too long. Shorten it.</source>
        <translation>Es demasiado largo. Acórtelo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="70"/>
        <source>This field is needed.</source>
        <translation>Este campo es obligatorio.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="71"/>
        <source>Already registered to a client.</source>
        <translation>Ya está registrado en otro cliente.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="72"/>
        <source>The service did not accept this. Check it.</source>
        <translation>El servicio no lo aceptó. Revíselo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="78"/>
        <source>Male</source>
        <translation>Masculino</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="79"/>
        <source>Female</source>
        <translation>Femenino</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="80"/>
        <source>Other</source>
        <translation>Otro</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="81"/>
        <source>Prefer not to say</source>
        <translation>Prefiere no decirlo</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="136"/>
        <source>DD/MM/YYYY</source>
        <translation>DD/MM/AAAA</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="136"/>
        <source>MM/DD/YYYY</source>
        <translation>MM/DD/AAAA</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="138"/>
        <source>Enroll new client</source>
        <translation>Alta de cliente nuevo</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="141"/>
        <source>An email or a document is needed; everything else is optional.</source>
        <translation>Hace falta un email o un documento; el resto es opcional.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="144"/>
        <source>name@example.com</source>
        <translation>nombre@ejemplo.com</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="146"/>
        <source>DNI</source>
        <translation>DNI</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="147"/>
        <source>Passport</source>
        <translation>Pasaporte</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="154"/>
        <source>11 4321 5678</source>
        <translation>11 4321 5678</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="165"/>
        <source>Email</source>
        <translation>Email</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="166"/>
        <source>Document</source>
        <translation>Documento</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="167"/>
        <source>First names</source>
        <translation>Nombres</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="168"/>
        <source>Last names</source>
        <translation>Apellidos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="169"/>
        <source>Phone</source>
        <translation>Teléfono</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="170"/>
        <source>Birthday</source>
        <translation>Fecha de nacimiento</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="171"/>
        <source>Gender</source>
        <translation>Género</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="191"/>
        <source>Go to the registered client</source>
        <translation>Ir al cliente registrado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="198"/>
        <source>Back</source>
        <translation>Volver</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enroll.py" line="201"/>
        <source>Enroll client</source>
        <translation>Dar de alta</translation>
    </message>
</context>
<context>
    <name>EnvironmentBand</name>
    <message>
        <location filename="../../kiosk/ui/widgets/band.py" line="25"/>
        <source>TRAINING: no real points are credited</source>
        <translation>MODO PRÁCTICA: no se acreditan puntos reales</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/band.py" line="28"/>
        <source>QA: test environment, not for real sales</source>
        <translation>QA: entorno de prueba, no apto para ventas reales</translation>
    </message>
</context>
<context>
    <name>ExchangeResult</name>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/sheets.py" line="48"/>
        <source>Pickup code</source>
        <translation>Código de retiro</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/sheets.py" line="58"/>
        <source>The client shows this code or the QR to collect it at any branch.</source>
        <translation>El cliente muestra este código o el QR para retirarlo en cualquier sucursal.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/sheets.py" line="63"/>
        <source>Done</source>
        <translation>Listo</translation>
    </message>
</context>
<context>
    <name>FieldRow</name>
    <message>
        <location filename="../../kiosk/ui/manager/settings_fields.py" line="172"/>
        <location filename="../../kiosk/ui/manager/settings_fields.py" line="215"/>
        <source>Set by IT</source>
        <translation>Lo define soporte técnico</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_fields.py" line="215"/>
        <source>Set by your organization</source>
        <translation>Lo define su organización</translation>
    </message>
</context>
<context>
    <name>FormPanel</name>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="173"/>
        <source>Back</source>
        <translation>Volver</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="177"/>
        <source>Delete</source>
        <translation>Eliminar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/form.py" line="184"/>
        <source>Save</source>
        <translation>Guardar</translation>
    </message>
    <message numerus="yes">
        <location filename="../../kiosk/ui/admin/form.py" line="307"/>
        <source>Too long: at most %n characters.</source>
        <translation>
            <numerusform>Es demasiado largo: como máximo %n carácter.</numerusform>
            <numerusform>Es demasiado largo: como máximo %n caracteres.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FoundPanel</name>
    <message>
        <location filename="../../kiosk/ui/screens/identify/found.py" line="57"/>
        <source>Suspended</source>
        <translation>Suspendido</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/found.py" line="59"/>
        <source>This client is suspended: they cannot earn or use points.</source>
        <translation>Este cliente está suspendido: no puede sumar ni usar puntos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/found.py" line="68"/>
        <source>Not registered yet: show them the QR to finish registering on their phone.</source>
        <translation>Todavía no se registró: muéstrele el QR para terminar el registro en su celular.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/found.py" line="72"/>
        <source>Credit points</source>
        <translation>Acreditar puntos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/found.py" line="73"/>
        <source>Rewards</source>
        <translation>Premios</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/found.py" line="74"/>
        <location filename="../../kiosk/ui/screens/identify/found.py" line="212"/>
        <source>Show registration QR</source>
        <translation>Mostrar QR de registro</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/found.py" line="81"/>
        <source>Ask the client to scan this code with their phone to finish registering.</source>
        <translation>Pida al cliente que escanee este código con su celular para terminar el registro.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/found.py" line="138"/>
        <source>Client identified</source>
        <translation>Cliente identificado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/found.py" line="151"/>
        <source>No level yet: the service assigns it in a few seconds.</source>
        <translation>Todavía sin nivel: el servicio lo asigna en unos segundos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/found.py" line="163"/>
        <source>Client not verified (offline)</source>
        <translation>Cliente sin verificar (sin conexión)</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/found.py" line="167"/>
        <source>The service checks this client when the connection returns: the points of a sale are credited then. Rewards need the client identified online.</source>
        <translation>El servicio verifica a este cliente cuando vuelva la conexión: recién entonces se acreditan los puntos de una venta. Para los premios hay que identificar al cliente con conexión.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/found.py" line="207"/>
        <source>Hide registration QR</source>
        <translation>Ocultar QR de registro</translation>
    </message>
</context>
<context>
    <name>IdentifyScreen</name>
    <message>
        <location filename="../../kiosk/ui/screens/identify/screen.py" line="75"/>
        <source>Scan or type the client&apos;s email or DNI</source>
        <translation>Escanee o escriba el email o DNI del cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/screen.py" line="76"/>
        <source>Client&apos;s email or document</source>
        <translation>Email o documento del cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/screen.py" line="79"/>
        <source>Search</source>
        <translation>Buscar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/screen.py" line="121"/>
        <source>Identify</source>
        <translation>Identificar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/screen.py" line="415"/>
        <source>Client not verified: their points are credited when the connection returns.</source>
        <translation>Cliente sin verificar: sus puntos se acreditan cuando vuelva la conexión.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enrolling.py" line="123"/>
        <source>new client</source>
        <translation>cliente nuevo</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enrolling.py" line="126"/>
        <source>Client enrolled: %1</source>
        <translation>Cliente dado de alta: %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enrolling.py" line="131"/>
        <source>%1 welcome points</source>
        <translation>%1 puntos de bienvenida</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enrolling.py" line="153"/>
        <source>This client is already registered. Go to the client instead.</source>
        <translation>Este cliente ya está registrado. Vaya a su ficha.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enrolling.py" line="159"/>
        <source>The service refused some data (%1). Check it and try again.</source>
        <translation>El servicio rechazó algunos datos (%1). Revíselos e intente de nuevo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/enrolling.py" line="165"/>
        <source>Some data is not valid. Check the marked fields.</source>
        <translation>Algunos datos no son válidos. Revise los campos marcados.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/parts.py" line="14"/>
        <source>Scan or type the client&apos;s email or DNI.</source>
        <translation>Escanee o escriba el email o DNI del cliente.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/parts.py" line="17"/>
        <source>That is too long for an email or a document. Clear it and try again.</source>
        <translation>Es demasiado largo para un email o un documento. Bórrelo e intente de nuevo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/parts.py" line="20"/>
        <source>That email is not complete. Check it (like name@example.com).</source>
        <translation>Ese email está incompleto. Revíselo (como nombre@ejemplo.com).</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/parts.py" line="23"/>
        <source>A DNI has 7 or 8 digits. Check the number.</source>
        <translation>Un DNI tiene 7 u 8 dígitos. Revise el número.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/parts.py" line="26"/>
        <source>The DNI barcode could not be read. Scan it again or type the number.</source>
        <translation>No se pudo leer el código de barras del DNI. Vuelva a escanearlo o escriba el número.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/parts.py" line="29"/>
        <source>Type the full email or the document number (names are not searched).</source>
        <translation>Escriba el email completo o el número de documento (no se busca por nombre).</translation>
    </message>
</context>
<context>
    <name>IdleWarning</name>
    <message>
        <location filename="../../kiosk/ui/widgets/idle_warning.py" line="42"/>
        <source>Still there?</source>
        <translation>¿Sigue ahí?</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/idle_warning.py" line="48"/>
        <source>Keep the sale</source>
        <translation>Conservar la venta</translation>
    </message>
    <message numerus="yes">
        <location filename="../../kiosk/ui/widgets/idle_warning.py" line="116"/>
        <source>The sale will be cleared in %n s.</source>
        <translation>
            <numerusform>La venta se borrará en %n s.</numerusform>
            <numerusform>La venta se borrará en %n s.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ItemTile</name>
    <message>
        <location filename="../../kiosk/ui/screens/points/items.py" line="50"/>
        <source>%1 pts</source>
        <translation>%1 pts</translation>
    </message>
</context>
<context>
    <name>JournalModel</name>
    <message numerus="yes">
        <location filename="../../kiosk/ui/screens/today/model.py" line="314"/>
        <source>%n items</source>
        <translation>
            <numerusform>%n artículo</numerusform>
            <numerusform>%n artículos</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>JournalTable</name>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="57"/>
        <location filename="../../kiosk/ui/screens/today/table.py" line="140"/>
        <source>Cancel credit</source>
        <translation>Anular</translation>
    </message>
</context>
<context>
    <name>Keypad</name>
    <message>
        <location filename="../../kiosk/ui/widgets/keypad.py" line="41"/>
        <source>Delete</source>
        <translation>Borrar</translation>
    </message>
</context>
<context>
    <name>KioskWindow</name>
    <message>
        <location filename="../../kiosk/ui/shell.py" line="31"/>
        <source>Loyalty Kiosk</source>
        <translation>Loyalty Kiosk</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/shell.py" line="35"/>
        <source>Starting…</source>
        <translation>Iniciando…</translation>
    </message>
</context>
<context>
    <name>LevelsSection</name>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="81"/>
        <location filename="../../kiosk/ui/admin/levels.py" line="107"/>
        <location filename="../../kiosk/ui/admin/levels.py" line="163"/>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="83"/>
        <source>From points</source>
        <translation>Desde (puntos)</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="88"/>
        <source>Multiplier</source>
        <translation>Multiplicador</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="90"/>
        <source>Colour</source>
        <translation>Color</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="95"/>
        <source>Created</source>
        <translation>Creado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="106"/>
        <source>Lowest points first</source>
        <translation>Menor puntaje</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="108"/>
        <source>Points to reach it</source>
        <translation>Puntos requeridos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="109"/>
        <source>Date created</source>
        <translation>Fecha de alta</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="111"/>
        <location filename="../../kiosk/ui/admin/levels.py" line="223"/>
        <source>New level</source>
        <translation>Nuevo nivel</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="112"/>
        <source>Search levels by name</source>
        <translation>Buscar niveles por nombre</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="114"/>
        <source>The program has no levels: every client is without level. Tap “New level” to create the first one.</source>
        <translation>El programa no tiene niveles: ningún cliente tiene nivel. Toque “Nuevo nivel” para crear el primero.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="125"/>
        <source>Levels</source>
        <translation>Niveles</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="146"/>
        <source>Save level</source>
        <translation>Guardar nivel</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="146"/>
        <location filename="../../kiosk/ui/admin/levels.py" line="291"/>
        <source>Delete level</source>
        <translation>Eliminar nivel</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="150"/>
        <source>After saving, the service moves clients to their new level and updates the rewards&apos; prices in the background: it may take a few seconds.</source>
        <translation>Después de guardar, el servicio pasa a los clientes a su nuevo nivel y actualiza los precios de los premios en segundo plano: puede tardar unos segundos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="156"/>
        <source>Saving replaces the whole level with what this form shows.</source>
        <translation>Al guardar, el nivel se reemplaza entero por lo que muestra este formulario.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="158"/>
        <source>Like Gold</source>
        <translation>Como Oro</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="159"/>
        <source>Like 5.000</source>
        <translation>Como 5.000</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="166"/>
        <source>Accumulated points to reach it</source>
        <translation>Puntos acumulados para alcanzarlo</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="168"/>
        <source>Each level starts at a different number of points.</source>
        <translation>Cada nivel empieza en una cantidad de puntos distinta.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="172"/>
        <source>Points multiplier</source>
        <translation>Multiplicador de puntos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="174"/>
        <source>1 = no bonus; 1,5 = 50% more points on every purchase.</source>
        <translation>1 = sin bono; 1,5 = 50% más de puntos en cada compra.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="176"/>
        <source>Description</source>
        <translation>Descripción</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="178"/>
        <source>Main colour</source>
        <translation>Color principal</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="179"/>
        <source>Second colour</source>
        <translation>Color secundario</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="180"/>
        <source>Border colour</source>
        <translation>Color del borde</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="188"/>
        <source>Another level already starts at these points. Choose another number.</source>
        <translation>Otro nivel ya empieza en esos puntos. Elija otro número.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="236"/>
        <source>Edit level “%1”</source>
        <translation>Editar el nivel “%1”</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="270"/>
        <source>Level saved: %1.</source>
        <translation>Nivel guardado: %1.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="270"/>
        <source>Level created: %1.</source>
        <translation>Nivel creado: %1.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="274"/>
        <location filename="../../kiosk/ui/admin/levels.py" line="308"/>
        <source>Clients and prices are being relocated: it may take a few seconds.</source>
        <translation>Se están reubicando clientes y precios: puede tardar unos segundos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="285"/>
        <source>Delete the level “%1”?</source>
        <translation>¿Eliminar el nivel “%1”?</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="287"/>
        <source>Its clients move to the level their points reach (or to no level), and every reward price for this level is deleted. The service does this in the background: it may take a few seconds. This cannot be undone.</source>
        <translation>Sus clientes pasan al nivel que alcanzan con sus puntos (o quedan sin nivel) y se eliminan todos los precios de premios de este nivel. El servicio lo hace en segundo plano: puede tardar unos segundos. No se puede deshacer.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/levels.py" line="306"/>
        <source>Level deleted: %1.</source>
        <translation>Nivel eliminado: %1.</translation>
    </message>
</context>
<context>
    <name>LockPanel</name>
    <message>
        <location filename="../../kiosk/ui/manager/lock_words.py" line="12"/>
        <source>The PIN could not be checked. Try again; if it keeps happening, call IT.</source>
        <translation>No se pudo verificar el PIN. Intente de nuevo; si sigue pasando, llame a soporte técnico.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_words.py" line="15"/>
        <source>No manager PIN is set on this kiosk. Ask IT to set the manager PIN.</source>
        <translation>Esta terminal no tiene PIN de encargado. Pida a soporte técnico que configure el PIN de encargado.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_words.py" line="18"/>
        <source>Manager mode is locked: too many wrong PINs, or the kiosk&apos;s PIN records were changed. Ask IT to reset the manager PIN.</source>
        <translation>El modo encargado está bloqueado: demasiados PIN incorrectos, o se modificaron los registros del PIN en la terminal. Pida a soporte técnico que restablezca el PIN de encargado.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_words.py" line="23"/>
        <source>Anyone would try this PIN first (like 1234, 1111 or 4321). Choose another.</source>
        <translation>Es de los primeros PIN que cualquiera probaría (como 1234, 1111 o 4321). Elija otro.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="224"/>
        <source>Start again</source>
        <translation>Empezar de nuevo</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="224"/>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="249"/>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="251"/>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="254"/>
        <source>Manager PIN</source>
        <translation>PIN de encargado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="230"/>
        <source>Back</source>
        <translation>Volver</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="249"/>
        <source>Authorize</source>
        <translation>Autorizar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="253"/>
        <source>Enter the manager PIN to open manager mode.</source>
        <translation>Ingrese el PIN de encargado para abrir el modo encargado.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="251"/>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="254"/>
        <source>Unlock</source>
        <translation>Desbloquear</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="256"/>
        <source>New manager PIN</source>
        <translation>Nuevo PIN de encargado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="239"/>
        <source>Choose %1 to %2 digits that only managers know.</source>
        <translation>Elija de %1 a %2 dígitos que solo conozcan los encargados.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="256"/>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="259"/>
        <source>Set a manager PIN</source>
        <translation>Crear un PIN de encargado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="257"/>
        <source>Continue</source>
        <translation>Continuar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="242"/>
        <source>Training mode: the first person here chooses the manager PIN. Choose %1 to %2 digits that only managers know.</source>
        <translation>Modo práctica: la primera persona que llega elige el PIN de encargado. Elija de %1 a %2 dígitos que solo conozcan los encargados.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="258"/>
        <source>Enter the same PIN again to confirm it.</source>
        <translation>Ingrese el mismo PIN otra vez para confirmarlo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="259"/>
        <source>Save PIN and unlock</source>
        <translation>Guardar PIN y desbloquear</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="282"/>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="321"/>
        <source>Too many wrong PINs. Try again in %1.</source>
        <translation>Demasiados PIN incorrectos. Intente de nuevo en %1.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="283"/>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="330"/>
        <source>You can try again now.</source>
        <translation>Ya puede volver a intentar.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="279"/>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="354"/>
        <source>The two PINs do not match. Choose a PIN again.</source>
        <translation>Los dos PIN no coinciden. Elija el PIN de nuevo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="389"/>
        <source>Wrong PIN. 1 try left before a wait.</source>
        <translation>PIN incorrecto. Queda 1 intento antes de una espera.</translation>
    </message>
    <message numerus="yes">
        <location filename="../../kiosk/ui/manager/lock_panel.py" line="390"/>
        <source>Wrong PIN. %n tries left before a wait.</source>
        <translation>
            <numerusform>PIN incorrecto. Queda %n intento antes de una espera.</numerusform>
            <numerusform>PIN incorrecto. Quedan %n intentos antes de una espera.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ManagerScreen</name>
    <message>
        <location filename="../../kiosk/ui/manager/gate.py" line="173"/>
        <source>Manager</source>
        <translation>Encargado</translation>
    </message>
</context>
<context>
    <name>ManagerSettings</name>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="22"/>
        <source>Set by IT: it cannot be changed on the kiosk.</source>
        <translation>Lo define soporte técnico: no se puede cambiar en la terminal.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="25"/>
        <source>Needed for this environment.</source>
        <translation>Obligatorio en este entorno.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="26"/>
        <source>Not a valid address: it must start with https:// (for example https://api.example.com).</source>
        <translation>No es una dirección válida: tiene que empezar con https:// (por ejemplo https://api.example.com).</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="30"/>
        <source>Choose between %1 and %2.</source>
        <translation>Elija entre %1 y %2.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="31"/>
        <source>At most %2 buttons: uncheck some items.</source>
        <translation>Como máximo %2 botones: desmarque algunos ítems.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="34"/>
        <source>No API key is stored for this environment yet: enter it above before saving.</source>
        <translation>Todavía no hay una API key guardada para este entorno: ingrésela arriba antes de guardar.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="38"/>
        <source>That does not look like an API key (8 to 512 characters, no spaces). Copy it again from the merchant panel: Configuration, Integrations.</source>
        <translation>No parece una API key (de 8 a 512 caracteres, sin espacios). Cópiela de nuevo desde el panel del comercio: Configuración, Integraciones.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="43"/>
        <source>The service does not accept this API key. Check that it is the current key of this environment (merchant panel: Configuration, Integrations). Nothing was saved.</source>
        <translation>El servicio no acepta esta API key. Verifique que sea la clave vigente de este entorno (panel del comercio: Configuración, Integraciones). No se guardó nada.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="48"/>
        <source>This computer has no secure keyring, so the API key cannot be stored. The kiosk never keeps the key in a plain file. Ask IT to enable the system&apos;s credential store.</source>
        <translation>Esta computadora no tiene un almacén seguro de claves, así que la API key no se puede guardar. La terminal nunca guarda la clave en un archivo común. Pida a soporte técnico que active el almacén de credenciales del sistema.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="53"/>
        <source>This key does not open that branch: choose one from the list.</source>
        <translation>Esta clave no da acceso a esa sucursal: elija una de la lista.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="56"/>
        <source>That QR does not belong to the chosen branch: choose another.</source>
        <translation>Ese QR no es de la sucursal elegida: elija otro.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="59"/>
        <source>This value cannot be used.</source>
        <translation>Este valor no se puede usar.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="63"/>
        <source>Environment</source>
        <translation>Entorno</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="64"/>
        <source>Production address</source>
        <translation>Dirección de producción</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="65"/>
        <source>QA address</source>
        <translation>Dirección de QA</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="66"/>
        <source>API key</source>
        <translation>API key</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="67"/>
        <source>Branch</source>
        <translation>Sucursal</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="68"/>
        <source>Validation QR</source>
        <translation>QR de validación</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="69"/>
        <source>Counter buttons</source>
        <translation>Botones del mostrador</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="70"/>
        <source>Counter idle time</source>
        <translation>Inactividad del mostrador</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="71"/>
        <source>Manager mode idle time</source>
        <translation>Inactividad del modo encargado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="72"/>
        <source>Language</source>
        <translation>Idioma</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="73"/>
        <source>Theme</source>
        <translation>Tema</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="77"/>
        <source>Production</source>
        <translation>Producción</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="78"/>
        <source>QA</source>
        <translation>QA</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="79"/>
        <source>Training</source>
        <translation>Práctica</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="83"/>
        <source>Real points for real clients.</source>
        <translation>Puntos reales para clientes reales.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="84"/>
        <source>The merchant&apos;s test service: points are not real.</source>
        <translation>El servicio de prueba del comercio: los puntos no son reales.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="87"/>
        <source>The simulator built into the kiosk: no API key, no network, no real points.</source>
        <translation>El simulador incluido en la terminal: sin API key, sin red, sin puntos reales.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="94"/>
        <source>Same as the computer</source>
        <translation>Igual que la computadora</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="100"/>
        <source>Light</source>
        <translation>Claro</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_text.py" line="101"/>
        <source>Dark</source>
        <translation>Oscuro</translation>
    </message>
</context>
<context>
    <name>ManagerView</name>
    <message>
        <location filename="../../kiosk/ui/manager/manager_view.py" line="63"/>
        <source>Manager mode</source>
        <translation>Modo encargado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/manager_view.py" line="65"/>
        <source>Locks again by itself when nobody touches the screen.</source>
        <translation>Se bloquea solo si nadie toca la pantalla.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/manager_view.py" line="67"/>
        <location filename="../../kiosk/ui/manager/manager_view.py" line="166"/>
        <source>Close the kiosk</source>
        <translation>Cerrar la terminal</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/manager_view.py" line="71"/>
        <source>Change PIN</source>
        <translation>Cambiar PIN</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/manager_view.py" line="75"/>
        <source>Lock</source>
        <translation>Bloquear</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/manager_view.py" line="161"/>
        <source>Close the kiosk?</source>
        <translation>¿Cerrar la terminal?</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/manager_view.py" line="163"/>
        <source>The counter stops until someone starts it again. Credits waiting to be sent stay saved and go out at the next start.</source>
        <translation>El mostrador queda detenido hasta que alguien lo vuelva a abrir. Las acreditaciones pendientes de envío quedan guardadas y salen en el próximo inicio.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/assemble.py" line="27"/>
        <source>Settings</source>
        <translation>Configuración</translation>
    </message>
</context>
<context>
    <name>MatchRow</name>
    <message>
        <location filename="../../kiosk/ui/screens/identify/matches.py" line="41"/>
        <source>Client #%1</source>
        <translation>Cliente n.º %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/matches.py" line="46"/>
        <source>%1 pts</source>
        <translation>%1 pts</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/matches.py" line="49"/>
        <source>Suspended</source>
        <translation>Suspendido</translation>
    </message>
</context>
<context>
    <name>MatchesPanel</name>
    <message>
        <location filename="../../kiosk/ui/screens/identify/matches.py" line="88"/>
        <source>More clients match: type more of the email or document.</source>
        <translation>Coinciden más clientes: escriba más del email o del documento.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/matches.py" line="90"/>
        <source>Enroll new client</source>
        <translation>Dar de alta cliente nuevo</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/matches.py" line="118"/>
        <source>No exact match</source>
        <translation>No hay una coincidencia exacta</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/matches.py" line="120"/>
        <source>Tap the client if they are on this list, or enroll a new client.</source>
        <translation>Toque al cliente si está en esta lista, o dé de alta un cliente nuevo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/matches.py" line="123"/>
        <source>No client with this email or document</source>
        <translation>Ningún cliente tiene este email o documento</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/matches.py" line="125"/>
        <source>Check it with the client, or enroll them now: it takes a minute.</source>
        <translation>Verifíquelo con el cliente, o dé de alta al cliente ahora: lleva un minuto.</translation>
    </message>
</context>
<context>
    <name>Messages</name>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="25"/>
        <source>Something went wrong. Try again; if it keeps happening, call a manager.</source>
        <translation>Algo salió mal. Intente de nuevo; si sigue pasando, llame al encargado.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="28"/>
        <source>Disk full: nothing was saved or sent. Call IT to free space on this kiosk, then try again.</source>
        <translation>Disco lleno: no se guardó ni se envió nada. Llame a soporte técnico para liberar espacio en esta terminal y vuelva a intentar.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="32"/>
        <source>The answer was lost on the way and it is not certain whether this happened. Check before trying again.</source>
        <translation>La respuesta se perdió en el camino y no se sabe si la operación se hizo. Verifique antes de volver a intentar.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="39"/>
        <source>No client matches.</source>
        <translation>Ningún cliente coincide.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="40"/>
        <source>That code does not exist. Check it and try again.</source>
        <translation>Ese código no existe. Revíselo e intente de nuevo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="43"/>
        <location filename="../../kiosk/ui/messages.py" line="46"/>
        <source>That reward no longer exists. Refresh the list.</source>
        <translation>Ese premio ya no existe. Actualice la lista.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="49"/>
        <source>A point item no longer exists. Refresh the buttons.</source>
        <translation>Un ítem de puntos ya no existe. Actualice los botones.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="52"/>
        <source>There is no active credit with that reference.</source>
        <translation>No hay ninguna acreditación vigente con esa referencia.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="55"/>
        <source>This kiosk&apos;s branch was not found. Ask a manager to check the settings.</source>
        <translation>No se encontró la sucursal de esta terminal. Pida al encargado que revise la configuración.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="58"/>
        <source>The validation QR was not found. Ask a manager to check the settings.</source>
        <translation>No se encontró el QR de validación. Pida al encargado que revise la configuración.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="61"/>
        <source>That level no longer exists.</source>
        <translation>Ese nivel ya no existe.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="62"/>
        <source>That operator no longer exists.</source>
        <translation>Ese operador ya no existe.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="63"/>
        <source>The service does not know this operation. Call IT.</source>
        <translation>El servicio no reconoce esta operación. Llame a soporte técnico.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="69"/>
        <source>The client does not have enough points for this.</source>
        <translation>El cliente no tiene puntos suficientes para esto.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="72"/>
        <source>This reward is not available right now.</source>
        <translation>Este premio no está disponible en este momento.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="75"/>
        <source>This reward is out of stock.</source>
        <translation>Este premio no tiene stock.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="76"/>
        <source>The client&apos;s level cannot exchange this reward.</source>
        <translation>El nivel del cliente no permite canjear este premio.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="79"/>
        <source>The client already reached the limit of exchanges for this reward.</source>
        <translation>El cliente ya llegó al límite de canjes de este premio.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="82"/>
        <source>The amount is below the minimum for a money exchange.</source>
        <translation>El monto es menor que el mínimo para un canje por dinero.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="85"/>
        <source>The service says this reference belongs to another operation. Check it in the program&apos;s panel before sending it again.</source>
        <translation>El servicio dice que esta referencia pertenece a otra operación. Revísela en el panel del programa antes de enviarla de nuevo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="90"/>
        <source>This client is already registered.</source>
        <translation>Este cliente ya está registrado.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="91"/>
        <source>That email belongs to another client.</source>
        <translation>Ese email es de otro cliente.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="92"/>
        <source>That document belongs to another client.</source>
        <translation>Ese documento es de otro cliente.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="95"/>
        <source>That affiliate card belongs to another client.</source>
        <translation>Esa tarjeta de socio es de otro cliente.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="98"/>
        <source>Another level already starts at those points.</source>
        <translation>Otro nivel ya empieza en esos puntos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="101"/>
        <source>That gives no points. Check the amount or the items.</source>
        <translation>Eso no da puntos. Revise el monto o los ítems.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="104"/>
        <source>Choose an amount or point items, not both.</source>
        <translation>Elija un monto o ítems de puntos, no los dos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="107"/>
        <source>This code was already delivered or has expired. Nothing was changed.</source>
        <translation>Este código ya se entregó o venció. No se cambió nada.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="110"/>
        <source>This exchange was canceled and cannot be delivered. Nothing was changed.</source>
        <translation>Este canje fue cancelado y no se puede entregar. No se cambió nada.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="113"/>
        <source>The email cannot be changed: the client already entered the platform.</source>
        <translation>El email no se puede cambiar: el cliente ya ingresó a la plataforma.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="116"/>
        <source>The code is not correct.</source>
        <translation>El código no es correcto.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="117"/>
        <source>The plan&apos;s limit of operators was reached.</source>
        <translation>Se alcanzó el límite de operadores del plan.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="120"/>
        <source>This reward&apos;s stock comes from its coupons and cannot be edited here.</source>
        <translation>El stock de este premio sale de sus cupones y no se puede editar acá.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="123"/>
        <source>This kiosk&apos;s branch does not belong to the merchant of the key. Ask a manager.</source>
        <translation>La sucursal de esta terminal no es del comercio de la clave. Consulte al encargado.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="126"/>
        <source>The kiosk has no API key. Ask a manager to set it up.</source>
        <translation>La terminal no tiene API key. Pida al encargado que la configure.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="129"/>
        <location filename="../../kiosk/ui/messages.py" line="141"/>
        <source>The kiosk&apos;s API key was rejected. Ask a manager to replace it.</source>
        <translation>Se rechazó la API key de la terminal. Pida al encargado que la reemplace.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="135"/>
        <source>Some data is not valid. Check the marked fields.</source>
        <translation>Algunos datos no son válidos. Revise los campos marcados.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="138"/>
        <source>The service refused this request. Check the data and try again.</source>
        <translation>El servicio rechazó el pedido. Revise los datos e intente de nuevo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="144"/>
        <source>This operation is not allowed for this branch. Ask a manager.</source>
        <translation>Esta operación no está permitida en esta sucursal. Consulte al encargado.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="147"/>
        <source>This client is suspended and cannot earn or use points. Refer them to customer service.</source>
        <translation>Este cliente está suspendido y no puede sumar ni usar puntos. Derívelo a atención al cliente.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="151"/>
        <source>This ticket was already credited. No new points were given.</source>
        <translation>Este ticket ya se acreditó. No se dieron puntos nuevos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="154"/>
        <source>The service refused this because of a conflict with existing data.</source>
        <translation>El servicio lo rechazó por un conflicto con datos existentes.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="157"/>
        <source>The service is busy. Wait a few seconds and try again.</source>
        <translation>El servicio está ocupado. Espere unos segundos e intente de nuevo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="160"/>
        <source>The service cannot process this right now. Try again in a few seconds.</source>
        <translation>El servicio no puede procesarlo en este momento. Intente de nuevo en unos segundos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="163"/>
        <source>The service had a problem. Try again in a moment.</source>
        <translation>El servicio tuvo un problema. Intente de nuevo en un momento.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="166"/>
        <source>No connection to the service. Check the network and try again.</source>
        <translation>Sin conexión con el servicio. Revise la red e intente de nuevo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="169"/>
        <source>The service did not answer in time. Try again.</source>
        <translation>El servicio no respondió a tiempo. Intente de nuevo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="172"/>
        <source>The service sent an answer the kiosk cannot read. Try again; if it repeats, call IT.</source>
        <translation>El servicio envió una respuesta que la terminal no puede leer. Intente de nuevo; si se repite, llame a soporte técnico.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="176"/>
        <source>The secure connection to the service could not be verified. Call IT: the network or a proxy may be intercepting it.</source>
        <translation>No se pudo verificar la conexión segura con el servicio. Llame a soporte técnico: puede que la red o un proxy la estén interceptando.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="184"/>
        <source>The amount is below the minimum for a money exchange: %1.</source>
        <translation>El monto es menor que el mínimo para un canje por dinero: %1.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="192"/>
        <source>Type the purchase amount.</source>
        <translation>Escriba el monto de la compra.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="193"/>
        <source>That is not an amount. Use only digits and the decimal separator.</source>
        <translation>Eso no es un monto. Use solo dígitos y el separador decimal.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="196"/>
        <source>The amount must be greater than zero.</source>
        <translation>El monto tiene que ser mayor que cero.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="199"/>
        <source>An amount has at most two decimals.</source>
        <translation>Un monto tiene como máximo dos decimales.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="202"/>
        <source>Check the separators: use %1 for thousands and %2 for decimals.</source>
        <translation>Revise los separadores: use %1 para los miles y %2 para los decimales.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/messages.py" line="205"/>
        <source>That amount is too large. Check it.</source>
        <translation>Ese monto es demasiado grande. Revíselo.</translation>
    </message>
</context>
<context>
    <name>ModeBar</name>
    <message>
        <location filename="../../kiosk/ui/screens/points/bar.py" line="31"/>
        <source>Amount</source>
        <translation>Monto</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/bar.py" line="32"/>
        <source>Point items</source>
        <translation>Ítems</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/bar.py" line="39"/>
        <source>Refresh items</source>
        <translation>Actualizar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/bar.py" line="44"/>
        <source>Ticket no. (optional)</source>
        <translation>N.º de ticket (opcional)</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/bar.py" line="48"/>
        <source>e.g. 0003-00012345</source>
        <translation>p. ej. 0003-00012345</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/bar.py" line="51"/>
        <source>Ticket number</source>
        <translation>Número de ticket</translation>
    </message>
</context>
<context>
    <name>MoneyPanel</name>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/money.py" line="37"/>
        <source>Exchange points for money</source>
        <translation>Canjear puntos por dinero</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/money.py" line="42"/>
        <source>Type the amount of money the client takes. The points are debited at the program&apos;s rate; the merchant may set a minimum.</source>
        <translation>Escriba el monto en dinero que se lleva el cliente. Los puntos se descuentan según la tasa del programa; el comercio puede fijar un mínimo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/money.py" line="50"/>
        <source>Amount of money</source>
        <translation>Monto en dinero</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/money.py" line="63"/>
        <source>Exchange money</source>
        <translation>Canjear dinero</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/money.py" line="104"/>
        <source>Type the amount of money.</source>
        <translation>Escriba el monto en dinero.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/money.py" line="122"/>
        <source>No amount yet</source>
        <translation>Todavía no hay monto</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/money.py" line="127"/>
        <source>The client takes %1</source>
        <translation>El cliente se lleva %1</translation>
    </message>
</context>
<context>
    <name>OfflinePanel</name>
    <message>
        <location filename="../../kiosk/ui/screens/identify/offline.py" line="42"/>
        <source>Type the client&apos;s email or document, or scan their DNI.</source>
        <translation>Escriba el email o documento del cliente, o escanee su DNI.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/offline.py" line="45"/>
        <source>Type it again in the second field to confirm it.</source>
        <translation>Escríbalo de nuevo en el segundo campo para confirmarlo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/offline.py" line="48"/>
        <source>The two entries are not the same. Check both with the client.</source>
        <translation>Los dos datos no coinciden. Revise ambos con el cliente.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/offline.py" line="74"/>
        <location filename="../../kiosk/ui/screens/identify/offline.py" line="159"/>
        <source>The client cannot be checked: no connection</source>
        <translation>No se puede verificar al cliente: no hay conexión</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/offline.py" line="78"/>
        <source>You can continue without checking: the points of the sale are credited when the connection returns. Rewards need the connection.</source>
        <translation>Puede seguir sin verificar: los puntos de la venta se acreditan cuando vuelva la conexión. Los premios necesitan conexión.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/offline.py" line="83"/>
        <location filename="../../kiosk/ui/screens/identify/offline.py" line="175"/>
        <source>Continue without checking</source>
        <translation>Seguir sin verificar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/offline.py" line="85"/>
        <source>Try again</source>
        <translation>Reintentar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/offline.py" line="96"/>
        <location filename="../../kiosk/ui/screens/identify/offline.py" line="97"/>
        <source>Client&apos;s email or document</source>
        <translation>Email o documento del cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/offline.py" line="99"/>
        <source>Type it again to confirm</source>
        <translation>Escríbalo de nuevo para confirmar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/offline.py" line="100"/>
        <source>Client&apos;s email or document, again</source>
        <translation>Email o documento del cliente, de nuevo</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/offline.py" line="110"/>
        <source>Use this client</source>
        <translation>Usar este cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/offline.py" line="112"/>
        <source>Back</source>
        <translation>Volver</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/offline.py" line="114"/>
        <source>A scanned DNI is enough: scan it into either field.</source>
        <translation>Con escanear el DNI alcanza: escanéelo en cualquiera de los dos campos.</translation>
    </message>
</context>
<context>
    <name>OfflineStrip</name>
    <message>
        <location filename="../../kiosk/ui/screens/identify/offline.py" line="256"/>
        <source>No connection: clients cannot be checked until it returns.</source>
        <translation>Sin conexión: no se pueden verificar clientes hasta que vuelva.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/identify/offline.py" line="259"/>
        <source>Continue without checking</source>
        <translation>Seguir sin verificar</translation>
    </message>
</context>
<context>
    <name>OperatorDetail</name>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="200"/>
        <source>Branches and permission groups</source>
        <translation>Sucursales y grupos de permisos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="202"/>
        <source>Back</source>
        <translation>Volver</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="203"/>
        <source>Edit operator</source>
        <translation>Editar operador</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="204"/>
        <source>Delete operator</source>
        <translation>Eliminar operador</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="266"/>
        <source>No branch assigned.</source>
        <translation>No tiene sucursales asignadas.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="272"/>
        <source>Group %1</source>
        <translation>Grupo %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="274"/>
        <source>No permission group: can do nothing here yet</source>
        <translation>Sin grupo de permisos: todavía no puede hacer nada acá</translation>
    </message>
</context>
<context>
    <name>OperatorFormPanel</name>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="88"/>
        <source>Save operator</source>
        <translation>Guardar operador</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="94"/>
        <source>Without a password the operator receives an email to set one. With a password they can log in at once.</source>
        <translation>Sin contraseña, el operador recibe un email para crearla. Con contraseña, puede ingresar enseguida.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="102"/>
        <source>Email, password and document cannot be changed from the kiosk. Branches, when changed, replace all the operator&apos;s assignments.</source>
        <translation>El email, la contraseña y el documento no se pueden cambiar desde la terminal. Si cambia las sucursales, se reemplazan todas las asignaciones del operador.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="109"/>
        <source>name@example.com</source>
        <translation>nombre@ejemplo.com</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="110"/>
        <source>Leave empty to send an email</source>
        <translation>Déjela vacía para enviar un email</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="114"/>
        <source>First names</source>
        <translation>Nombres</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="115"/>
        <source>Last names</source>
        <translation>Apellidos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="116"/>
        <source>Email</source>
        <translation>Email</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="120"/>
        <source>Password (optional)</source>
        <translation>Contraseña (opcional)</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="122"/>
        <source>At least 8 characters.</source>
        <translation>Al menos 8 caracteres.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="124"/>
        <source>Phone (optional)</source>
        <translation>Teléfono (opcional)</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="125"/>
        <source>Document (optional)</source>
        <translation>Documento (opcional)</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="126"/>
        <source>Branches</source>
        <translation>Sucursales</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="129"/>
        <source>Tap the branches where the operator works. Permission groups are numbered in the merchant panel; without one the operator can do nothing in that branch until a group is assigned there.</source>
        <translation>Toque las sucursales donde trabaja el operador. Los grupos de permisos están numerados en el panel del comercio; sin grupo, el operador no puede hacer nada en esa sucursal hasta que se le asigne uno.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators_form.py" line="144"/>
        <source>Permission group number (optional)</source>
        <translation>Número de grupo de permisos (opcional)</translation>
    </message>
</context>
<context>
    <name>OperatorsSection</name>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="59"/>
        <location filename="../../kiosk/ui/admin/operators.py" line="71"/>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="60"/>
        <location filename="../../kiosk/ui/admin/operators.py" line="72"/>
        <location filename="../../kiosk/ui/admin/operators.py" line="131"/>
        <source>Email</source>
        <translation>Email</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="61"/>
        <location filename="../../kiosk/ui/admin/operators.py" line="73"/>
        <source>Role</source>
        <translation>Rol</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="63"/>
        <location filename="../../kiosk/ui/admin/operators.py" line="134"/>
        <source>Created</source>
        <translation>Creado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="70"/>
        <source>Administrators first</source>
        <translation>Administradores primero</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="74"/>
        <source>Date created</source>
        <translation>Fecha de alta</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="76"/>
        <location filename="../../kiosk/ui/admin/operators.py" line="162"/>
        <source>New operator</source>
        <translation>Nuevo operador</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="77"/>
        <source>Search by name, email or document</source>
        <translation>Buscar por nombre, email o documento</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="78"/>
        <source>No operators yet. Tap “New operator” to add one.</source>
        <translation>Todavía no hay operadores. Toque “Nuevo operador” para agregar uno.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="90"/>
        <source>Operators</source>
        <translation>Operadores</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="94"/>
        <source>Administrator</source>
        <translation>Administrador</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="96"/>
        <source>Operator</source>
        <translation>Operador</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="127"/>
        <source>Has access to the merchant panel.</source>
        <translation>Tiene acceso al panel del comercio.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="129"/>
        <source>Has not set a password yet (an email was sent to set one).</source>
        <translation>Todavía no creó su contraseña (se le envió un email para crearla).</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="132"/>
        <source>Phone</source>
        <translation>Teléfono</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="133"/>
        <source>Document</source>
        <translation>Documento</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="173"/>
        <source>Edit operator “%1”</source>
        <translation>Editar el operador “%1”</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="199"/>
        <source>The plan&apos;s limit of operators was reached: no operator was created. Delete an operator who no longer works here, or ask for a larger plan.</source>
        <translation>Se alcanzó el límite de operadores del plan: no se creó ningún operador. Elimine un operador que ya no trabaje acá o pida un plan más grande.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="219"/>
        <source>Nothing changed.</source>
        <translation>No cambió nada.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="229"/>
        <source>Operator saved: %1.</source>
        <translation>Operador guardado: %1.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="231"/>
        <source>Operator created: %1.</source>
        <translation>Operador creado: %1.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="243"/>
        <source>Delete the operator %1?</source>
        <translation>¿Eliminar al operador %1?</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="245"/>
        <source>They lose access to the merchant panel at once. The operations they registered stay as they are. This cannot be undone.</source>
        <translation>Pierde el acceso al panel del comercio en el acto. Las operaciones que registró quedan como están. No se puede deshacer.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="248"/>
        <source>Delete operator</source>
        <translation>Eliminar operador</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/operators.py" line="264"/>
        <source>Operator deleted: %1.</source>
        <translation>Operador eliminado: %1.</translation>
    </message>
</context>
<context>
    <name>PendingPanel</name>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending.py" line="274"/>
        <source>Retry now</source>
        <translation>Reintentar ahora</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending.py" line="279"/>
        <source>Nothing waiting: every credit and cancel of this kiosk has been sent.</source>
        <translation>Nada en espera: todas las acreditaciones y anulaciones de este kiosco fueron enviadas.</translation>
    </message>
    <message numerus="yes">
        <location filename="../../kiosk/ui/screens/today/pending.py" line="302"/>
        <source>%n waiting to be sent</source>
        <translation>
            <numerusform>%n esperando envío</numerusform>
            <numerusform>%n esperando envío</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../kiosk/ui/screens/today/pending.py" line="304"/>
        <source>%n refused by the server: a manager must discard</source>
        <translation>
            <numerusform>%n rechazada por el servidor: un encargado debe descartarla</numerusform>
            <numerusform>%n rechazadas por el servidor: un encargado debe descartarlas</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../kiosk/ui/screens/today/pending.py" line="311"/>
        <source>%n operation(s) waiting for more than 24 hours. Manager: check the connection and the server, or call support.</source>
        <translation>
            <numerusform>%n operación espera hace más de 24 horas. Encargado: revise la conexión y el servidor, o llame a soporte.</numerusform>
            <numerusform>%n operaciones esperan hace más de 24 horas. Encargado: revise la conexión y el servidor, o llame a soporte.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PendingTable</name>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="46"/>
        <source>Waiting</source>
        <translation>Espera</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="47"/>
        <source>Operation</source>
        <translation>Operación</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="48"/>
        <source>Client</source>
        <translation>Cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="49"/>
        <source>Reference</source>
        <translation>Referencia</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="50"/>
        <source>Tries</source>
        <translation>Intentos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="51"/>
        <source>Last error</source>
        <translation>Último error</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="55"/>
        <source>Credit</source>
        <translation>Acreditación</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="56"/>
        <source>Cancel</source>
        <translation>Anulación</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="58"/>
        <source>Refused: %1</source>
        <translation>Rechazada: %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="61"/>
        <source>The service&apos;s answer could not be read (it may have been applied). It is sent again automatically, never credited twice; if this repeats, call IT.</source>
        <translation>No se pudo leer la respuesta del servicio (puede que se haya aplicado). Se envía de nuevo automáticamente, nunca se acredita dos veces; si se repite, llame a soporte técnico.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="66"/>
        <source>The kiosk could not finish the last attempt. It is sent again automatically, never credited twice; if this repeats, call IT.</source>
        <translation>El kiosco no pudo completar el último intento. Se envía de nuevo automáticamente, nunca se acredita dos veces; si se repite, llame a soporte técnico.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="72"/>
        <source>Sending…</source>
        <translation>Enviando…</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="73"/>
        <source>Unknown operation (%1)</source>
        <translation>Operación desconocida (%1)</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="75"/>
        <source>This kiosk cannot read this row: a newer version wrote it.</source>
        <translation>Este kiosco no puede leer esta fila: la escribió una versión más nueva.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="78"/>
        <source>This kiosk cannot read this row: its stored data is damaged.</source>
        <translation>Este kiosco no puede leer esta fila: sus datos guardados están dañados.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="99"/>
        <source>under a minute</source>
        <translation>menos de un minuto</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="101"/>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="104"/>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="105"/>
        <source>%1 days</source>
        <translation>%1 días</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="84"/>
        <source>Discard</source>
        <translation>Descartar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/pending_model.py" line="85"/>
        <source>Tap again to discard</source>
        <translation>Toque de nuevo para descartar</translation>
    </message>
</context>
<context>
    <name>PinDots</name>
    <message numerus="yes">
        <location filename="../../kiosk/ui/manager/pin_pad.py" line="36"/>
        <source>%n digits typed</source>
        <translation>
            <numerusform>%n dígito ingresado</numerusform>
            <numerusform>%n dígitos ingresados</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PinPad</name>
    <message>
        <location filename="../../kiosk/ui/manager/pin_pad.py" line="72"/>
        <source>Clear</source>
        <translation>Limpiar</translation>
    </message>
</context>
<context>
    <name>PointItemsSection</name>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="49"/>
        <location filename="../../kiosk/ui/admin/point_items.py" line="78"/>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="51"/>
        <location filename="../../kiosk/ui/admin/point_items.py" line="79"/>
        <location filename="../../kiosk/ui/admin/point_items.py" line="167"/>
        <source>Points</source>
        <translation>Puntos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="57"/>
        <location filename="../../kiosk/ui/admin/point_items.py" line="80"/>
        <source>Amount</source>
        <translation>Monto</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="64"/>
        <source>Applies to</source>
        <translation>Se aplica en</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="66"/>
        <source>Created</source>
        <translation>Creado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="77"/>
        <source>Default order</source>
        <translation>Predeterminado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="81"/>
        <source>Date created</source>
        <translation>Fecha de alta</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="83"/>
        <location filename="../../kiosk/ui/admin/point_items.py" line="186"/>
        <source>New point item</source>
        <translation>Nuevo ítem de puntos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="84"/>
        <source>Search point items by name</source>
        <translation>Buscar ítems por nombre</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="86"/>
        <source>No point items yet. Tap “New point item” to create one: the counter credits it with one tap instead of typing an amount.</source>
        <translation>Todavía no hay ítems de puntos. Toque “Nuevo ítem de puntos” para crear uno: el mostrador lo acredita con un toque en vez de escribir un monto.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="97"/>
        <source>Point items</source>
        <translation>Ítems de puntos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="101"/>
        <source>All branches</source>
        <translation>Todas las sucursales</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="102"/>
        <source>This branch only</source>
        <translation>Solo esta sucursal</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="118"/>
        <source>Save item</source>
        <translation>Guardar ítem</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="118"/>
        <location filename="../../kiosk/ui/admin/point_items.py" line="250"/>
        <source>Delete item</source>
        <translation>Eliminar ítem</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="122"/>
        <source>Saving replaces the whole item. Credits already made keep the points they gave.</source>
        <translation>Al guardar, el ítem se reemplaza entero. Las acreditaciones ya hechas conservan los puntos que dieron.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="126"/>
        <source>Like “Coffee” or “Weekly special”</source>
        <translation>Como “Café” o “Oferta de la semana”</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="128"/>
        <source>Name shown on the counter button</source>
        <translation>Nombre que muestra el botón del mostrador</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="130"/>
        <source>Fixed points</source>
        <translation>Puntos fijos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="131"/>
        <location filename="../../kiosk/ui/admin/point_items.py" line="159"/>
        <source>Purchase amount</source>
        <translation>Monto de compra</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="146"/>
        <source>What the item gives</source>
        <translation>Qué da el ítem</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="162"/>
        <source>Converted to points by the program&apos;s rule, like a purchase of this amount.</source>
        <translation>Se convierte en puntos con la regla del programa, como una compra de este monto.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="165"/>
        <source>Like 1.500</source>
        <translation>Como 1.500</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="168"/>
        <source>Given as they are, whatever the price.</source>
        <translation>Se dan tal cual, sin importar el precio.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="169"/>
        <source>Like 50</source>
        <translation>Como 50</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="199"/>
        <source>Edit “%1”</source>
        <translation>Editar “%1”</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="234"/>
        <source>Point item saved: %1.</source>
        <translation>Ítem de puntos guardado: %1.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="234"/>
        <source>Point item created: %1.</source>
        <translation>Ítem de puntos creado: %1.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="245"/>
        <source>Delete the point item “%1”?</source>
        <translation>¿Eliminar el ítem de puntos “%1”?</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="247"/>
        <source>It disappears from the counter buttons of every branch. Credits already made keep the points they gave. This cannot be undone.</source>
        <translation>Desaparece de los botones del mostrador de todas las sucursales. Las acreditaciones ya hechas conservan los puntos que dieron. No se puede deshacer.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/point_items.py" line="266"/>
        <source>Point item deleted: %1.</source>
        <translation>Ítem de puntos eliminado: %1.</translation>
    </message>
</context>
<context>
    <name>PointsScreen</name>
    <message>
        <location filename="../../kiosk/ui/screens/points/screen.py" line="151"/>
        <source>Points</source>
        <translation>Puntos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/text.py" line="13"/>
        <source>A credit takes at most %1 units. Credit these first, then the rest.</source>
        <translation>Una acreditación admite como máximo %1 unidades. Acredite estas primero y después el resto.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/screen.py" line="249"/>
        <source>Loading the point items…</source>
        <translation>Cargando los ítems de puntos…</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/text.py" line="21"/>
        <source>%1 The credit was not given; it stays in the Pending list for a manager.</source>
        <translation>%1 La acreditación no se hizo; queda en la lista de Pendientes para un encargado.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/text.py" line="26"/>
        <source>The answer was lost on the way: the points may already be credited. Tap Try again: this sale is never credited twice.</source>
        <translation>La respuesta se perdió en el camino: puede que los puntos ya estén acreditados. Toque Reintentar: esta venta nunca se acredita dos veces.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/text.py" line="35"/>
        <source>Check the ticket number: letters, digits and &apos;-&apos; only, up to %1.</source>
        <translation>Revise el número de ticket: solo letras, números y &apos;-&apos;, hasta %1.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/text.py" line="42"/>
        <source>Tap the items of the purchase first.</source>
        <translation>Primero toque los ítems de la compra.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/text.py" line="44"/>
        <source>Identify a client first.</source>
        <translation>Primero identifique a un cliente.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/text.py" line="46"/>
        <source>The client changed. Check the sale and preview it again.</source>
        <translation>Cambió el cliente. Revise la venta y vuelva a ver la vista previa.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/text.py" line="49"/>
        <source>Wait for the current credit to finish.</source>
        <translation>Espere a que termine la acreditación en curso.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/screen.py" line="275"/>
        <source>Point items as of %1 (offline)</source>
        <translation>Ítems de puntos al %1 (sin conexión)</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/screen.py" line="382"/>
        <source>No point items are offered at this branch.</source>
        <translation>Esta sucursal no ofrece ítems de puntos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/screen.py" line="384"/>
        <source>The point items could not be loaded. Tap Refresh items.</source>
        <translation>No se pudieron cargar los ítems de puntos. Toque Actualizar.</translation>
    </message>
</context>
<context>
    <name>PreviewCard</name>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="88"/>
        <source>Preview: nothing credited yet</source>
        <translation>Vista previa: todavía no se acreditó nada</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="92"/>
        <source>Amount to credit</source>
        <translation>Monto a acreditar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="97"/>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="158"/>
        <source>Level bonus</source>
        <translation>Bono de nivel</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="106"/>
        <source>Base points</source>
        <translation>Puntos base</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="108"/>
        <source>Point rules bonus</source>
        <translation>Bono por reglas</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="119"/>
        <source>Total</source>
        <translation>Total</translation>
    </message>
    <message numerus="yes">
        <location filename="../../kiosk/ui/screens/points/panels.py" line="146"/>
        <source>%n units</source>
        <translation>
            <numerusform>%n unidad</numerusform>
            <numerusform>%n unidades</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="153"/>
        <source>Level bonus (%1 ×%2)</source>
        <translation>Nivel %1 (×%2)</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="156"/>
        <source>Level bonus (%1)</source>
        <translation>Nivel %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/panels.py" line="161"/>
        <source>%1 pts</source>
        <translation>%1 pts</translation>
    </message>
</context>
<context>
    <name>PurchaseCard</name>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/card.py" line="20"/>
        <source>Pending: not delivered yet</source>
        <translation>Pendiente: todavía sin entregar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/card.py" line="21"/>
        <source>Delivered</source>
        <translation>Entregado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/card.py" line="22"/>
        <source>Canceled</source>
        <translation>Cancelado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/card.py" line="23"/>
        <source>Expired</source>
        <translation>Vencido</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/card.py" line="24"/>
        <source>Unknown status</source>
        <translation>Estado desconocido</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/card.py" line="71"/>
        <source>Code</source>
        <translation>Código</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/card.py" line="72"/>
        <source>Client</source>
        <translation>Cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/card.py" line="73"/>
        <source>Points</source>
        <translation>Puntos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/card.py" line="76"/>
        <source>Exchanged</source>
        <translation>Canjeado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/card.py" line="77"/>
        <source>Last change</source>
        <translation>Último cambio</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/card.py" line="78"/>
        <source>Branch</source>
        <translation>Sucursal</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/card.py" line="121"/>
        <source>%1 in money</source>
        <translation>%1 en dinero</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/card.py" line="123"/>
        <source>Money exchange</source>
        <translation>Canje por dinero</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/card.py" line="123"/>
        <source>Reward</source>
        <translation>Premio</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/card.py" line="132"/>
        <source>%1 pts</source>
        <translation>%1 pts</translation>
    </message>
</context>
<context>
    <name>PurchasesSection</name>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="30"/>
        <location filename="../../kiosk/ui/admin/purchases.py" line="81"/>
        <source>Pending</source>
        <translation>Pendiente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="31"/>
        <location filename="../../kiosk/ui/admin/purchases.py" line="82"/>
        <source>Delivered</source>
        <translation>Entregado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="32"/>
        <location filename="../../kiosk/ui/admin/purchases.py" line="83"/>
        <source>Canceled</source>
        <translation>Cancelado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="51"/>
        <source>Code</source>
        <translation>Código</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="52"/>
        <location filename="../../kiosk/ui/admin/purchases.py" line="72"/>
        <location filename="../../kiosk/ui/admin/purchases.py" line="78"/>
        <source>State</source>
        <translation>Estado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="53"/>
        <source>Reward</source>
        <translation>Premio</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="55"/>
        <location filename="../../kiosk/ui/admin/purchases.py" line="71"/>
        <source>Points</source>
        <translation>Puntos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="60"/>
        <source>Client</source>
        <translation>Cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="62"/>
        <location filename="../../kiosk/ui/admin/purchases.py" line="70"/>
        <source>Date</source>
        <translation>Fecha</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="69"/>
        <source>Newest first</source>
        <translation>Más recientes primero</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="74"/>
        <source>Search by code, client name or email</source>
        <translation>Buscar por código, nombre o email del cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="75"/>
        <source>No exchanges yet. Clients exchange their points at the counter.</source>
        <translation>Todavía no hay canjes. Los clientes canjean sus puntos en el mostrador.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="80"/>
        <location filename="../../kiosk/ui/admin/purchases.py" line="90"/>
        <source>All</source>
        <translation>Todos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="88"/>
        <source>Kind</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="91"/>
        <source>Rewards</source>
        <translation>Premios</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="92"/>
        <source>Money</source>
        <translation>Dinero</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="102"/>
        <source>Exchanges</source>
        <translation>Canjes</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="134"/>
        <source>Exchange %1 is %2: only pending exchanges can be delivered.</source>
        <translation>El canje %1 está %2: solo se pueden entregar canjes pendientes.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="140"/>
        <source>the client</source>
        <translation>el cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="143"/>
        <source>Deliver exchange %1?</source>
        <translation>¿Entregar el canje %1?</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="145"/>
        <source>Hand over %1 to %2 (%3 points already paid). It is marked delivered and cannot be delivered again.</source>
        <translation>Entregue %1 a %2 (%3 puntos ya pagados). Queda como entregado y no se puede volver a entregar.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="151"/>
        <source>Deliver</source>
        <translation>Entregar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="172"/>
        <source>Exchange %1 delivered.</source>
        <translation>Canje %1 entregado.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="176"/>
        <source>Exchange %1 has expired and cannot be delivered. Nothing was changed.</source>
        <translation>El canje %1 venció y no se puede entregar. No se cambió nada.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="182"/>
        <source>Exchange %1 was canceled and cannot be delivered. Nothing was changed.</source>
        <translation>El canje %1 fue cancelado y no se puede entregar. No se cambió nada.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/purchases.py" line="187"/>
        <source>Exchange %1 was already delivered. Nothing was changed.</source>
        <translation>El canje %1 ya se entregó. No se cambió nada.</translation>
    </message>
</context>
<context>
    <name>Rail</name>
    <message>
        <location filename="../../kiosk/ui/counter.py" line="28"/>
        <source>Identify</source>
        <translation>Identificar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/counter.py" line="32"/>
        <source>Points</source>
        <translation>Puntos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/counter.py" line="33"/>
        <source>Rewards</source>
        <translation>Premios</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/counter.py" line="34"/>
        <source>Redeem</source>
        <translation>Entregas</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/counter.py" line="35"/>
        <source>Code</source>
        <translation>Código</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/counter.py" line="36"/>
        <source>Today</source>
        <translation>Hoy</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/counter.py" line="121"/>
        <source>A manager&apos;s PIN is needed to cancel a credit.</source>
        <translation>Para anular una acreditación hace falta el PIN de un encargado.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/counter.py" line="126"/>
        <source>A manager&apos;s PIN is needed to discard a pending operation.</source>
        <translation>Se necesita el PIN de un encargado para descartar una operación pendiente.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/counter.py" line="208"/>
        <source>Manager</source>
        <translation>Encargado</translation>
    </message>
</context>
<context>
    <name>RailButton</name>
    <message>
        <location filename="../../kiosk/ui/widgets/rail_button.py" line="33"/>
        <source>%1 (key %2)</source>
        <translation>%1 (tecla %2)</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/rail_button.py" line="36"/>
        <source>Key %1</source>
        <translation>Tecla %1</translation>
    </message>
</context>
<context>
    <name>RedeemScreen</name>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/text.py" line="15"/>
        <source>Scan or type the purchase code.</source>
        <translation>Escanee o escriba el código de canje.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/text.py" line="16"/>
        <source>A purchase code has only letters and digits. Check it and try again.</source>
        <translation>Un código de canje tiene solo letras y números. Revíselo e intente de nuevo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/text.py" line="19"/>
        <source>That code is too short or too long. Purchase codes have 8 characters.</source>
        <translation>Ese código es demasiado corto o largo. Los códigos de canje tienen 8 caracteres.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/text.py" line="32"/>
        <source>Hand over the money: %1</source>
        <translation>Entregue el dinero: %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/text.py" line="35"/>
        <source>Hand over the reward</source>
        <translation>Entregue el premio</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/text.py" line="50"/>
        <source>Delivered: %1 · code %2.</source>
        <translation>Entregado: %1 · código %2.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/text.py" line="54"/>
        <source>This code was already delivered (%1). Nothing was changed.</source>
        <translation>Este código ya se entregó (%1). No se cambió nada.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/text.py" line="57"/>
        <source>Already delivered: do not hand it over again.</source>
        <translation>Ya entregado: no lo entregue de nuevo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/text.py" line="63"/>
        <source>This code has expired and can no longer be delivered. Nothing was changed.</source>
        <translation>Este código venció y ya no se puede entregar. No se cambió nada.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/text.py" line="67"/>
        <source>Expired: do not hand over the reward.</source>
        <translation>Vencido: no entregue el premio.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/text.py" line="70"/>
        <source>This exchange was canceled: there is nothing to deliver. Nothing was changed.</source>
        <translation>Este canje fue cancelado: no hay nada para entregar. No se cambió nada.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/text.py" line="74"/>
        <source>Canceled: do not hand over the reward.</source>
        <translation>Cancelado: no entregue el premio.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="79"/>
        <source>Scan or type the purchase code</source>
        <translation>Escanee o escriba el código de canje</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="80"/>
        <source>Purchase code</source>
        <translation>Código de canje</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="83"/>
        <source>Look up</source>
        <translation>Buscar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="98"/>
        <source>Deliver</source>
        <translation>Entregar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="127"/>
        <source>Redeem</source>
        <translation>Entregas</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="144"/>
        <source>Press Enter to look it up; a complete code is looked up as soon as it is in.</source>
        <translation>Presione Enter para buscarlo; un código completo se busca apenas se termina de ingresar.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="189"/>
        <source>Scan the QR or type the code the client shows.</source>
        <translation>Escanee el QR o escriba el código que muestra el cliente.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="250"/>
        <source>This code was already delivered (%1). Nothing to do.</source>
        <translation>Este código ya se entregó (%1). No hay nada que hacer.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="257"/>
        <source>This exchange was canceled: there is nothing to deliver.</source>
        <translation>Este canje fue cancelado: no hay nada para entregar.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="288"/>
        <source>Not the client identified (%1): this purchase is another client&apos;s. Check who collects it before confirming.</source>
        <translation>No es del cliente identificado (%1): este canje es de otro cliente. Verifique quién lo retira antes de confirmar.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="290"/>
        <source>another client</source>
        <translation>otro cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="306"/>
        <source>Look up a code to deliver its purchase.</source>
        <translation>Busque un código para entregar su canje.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="309"/>
        <source>Look up the code again to see whether it was delivered.</source>
        <translation>Vuelva a buscar el código para ver si quedó entregado.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="314"/>
        <source>Confirm the delivery first. Keep the reward until the service confirms it.</source>
        <translation>Primero confirme la entrega. Guarde el premio hasta que el servicio la confirme.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="319"/>
        <source>The service confirmed the delivery. Then scan or type the next code.</source>
        <translation>El servicio confirmó la entrega. Después escanee o escriba el próximo código.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="346"/>
        <source>Keep the reward until the service confirms the delivery: an expired or used code is refused.</source>
        <translation>Guarde el premio hasta que el servicio confirme la entrega: un código vencido o ya usado se rechaza.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="322"/>
        <source>Nothing to deliver. Scan or type the next code.</source>
        <translation>No hay nada para entregar. Escanee o escriba el próximo código.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="233"/>
        <source>No purchase has the code %1. Check it and try again.</source>
        <translation>Ningún canje tiene el código %1. Revíselo y vuelva a intentar.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="324"/>
        <source>Only a pending purchase can be delivered.</source>
        <translation>Solo se puede entregar un canje pendiente.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="333"/>
        <location filename="../../kiosk/ui/screens/redeem/text.py" line="46"/>
        <source>%1 in money</source>
        <translation>%1 en dinero</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="341"/>
        <source>Confirm the delivery</source>
        <translation>Confirmar la entrega</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="342"/>
        <source>Deliver %1 to %2.</source>
        <translation>Entregar %1 a %2.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="335"/>
        <source>Code %1 will be marked delivered and cannot be used again.</source>
        <translation>El código %1 quedará como entregado y no podrá usarse de nuevo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/redeem/screen.py" line="343"/>
        <source>Confirm delivery</source>
        <translation>Confirmar entrega</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/offline.py" line="25"/>
        <source>No connection: deliveries need the service to check the code. Nothing was sent; try again when the connection returns.</source>
        <translation>Sin conexión: las entregas necesitan que el servicio verifique el código. No se envió nada; intente de nuevo cuando vuelva la conexión.</translation>
    </message>
</context>
<context>
    <name>RewardFormPanel</name>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="54"/>
        <source>Used by the rewards listed: %1.</source>
        <translation>Las usan los premios de la lista: %1.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="67"/>
        <source>“%1” was deleted</source>
        <translation>“%1” se eliminó</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="73"/>
        <source>“%1” was deleted: its price %2 is not sent</source>
        <translation>“%1” se eliminó: su precio %2 no se envía</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="81"/>
        <source>“%1” was added, with no price yet</source>
        <translation>“%1” se agregó, todavía sin precio</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="87"/>
        <source>“%1” is now called “%2”</source>
        <translation>“%1” ahora se llama “%2”</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="91"/>
        <source>Not saved: the levels changed while the form was open (%1). Check the prices and save again.</source>
        <translation>No se guardó: cambiaron los niveles mientras el formulario estaba abierto (%1). Revise los precios y guarde de nuevo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="106"/>
        <source>Save reward</source>
        <translation>Guardar premio</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="112"/>
        <source>New reward</source>
        <translation>Nuevo premio</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="114"/>
        <source>Edit reward “%1”</source>
        <translation>Editar el premio “%1”</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="117"/>
        <source>Saving replaces the whole reward: a level left without a price loses its offer, and categories not listed are unlinked. Options the kiosk does not show (messages, time limits, coupons) stay as they are.</source>
        <translation>Al guardar, el premio se reemplaza entero: un nivel que quede sin precio pierde su oferta y se desvinculan las categorías que no figuren. Las opciones que la terminal no muestra (mensajes, plazos, cupones) quedan como están.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="130"/>
        <source>One line shown under the name</source>
        <translation>Una línea debajo del nombre</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="133"/>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="134"/>
        <source>Short description</source>
        <translation>Descripción corta</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="135"/>
        <source>Description</source>
        <translation>Descripción</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="138"/>
        <source>Image address (optional)</source>
        <translation>Dirección de la imagen (opcional)</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="140"/>
        <source>A public web address; the kiosk never downloads it.</source>
        <translation>Una dirección web pública; la terminal nunca la descarga.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="143"/>
        <source>Price in points</source>
        <translation>Precio en puntos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="147"/>
        <source>An offer is open to its level and the higher ones. Leave a level empty to give it no offer of its own.</source>
        <translation>Una oferta vale para su nivel y los superiores. Deje un nivel vacío para que no tenga oferta propia.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="153"/>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="158"/>
        <source>No offer</source>
        <translation>Sin oferta</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="155"/>
        <source>Clients without level</source>
        <translation>Clientes sin nivel</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="161"/>
        <source>%1 (from %2 points)</source>
        <translation>%1 (desde %2 puntos)</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="169"/>
        <source>Stock and limits</source>
        <translation>Stock y límites</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="171"/>
        <source>No stock control</source>
        <translation>Sin control de stock</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="172"/>
        <source>Controlled stock</source>
        <translation>Con control de stock</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="175"/>
        <source>Leave the stock as it is</source>
        <translation>Dejar el stock como está</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="179"/>
        <source>Stock</source>
        <translation>Stock</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="181"/>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="184"/>
        <source>Units available</source>
        <translation>Unidades disponibles</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="186"/>
        <source>At 0 the reward is disabled automatically.</source>
        <translation>En 0, el premio se desactiva automáticamente.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="188"/>
        <source>No limit</source>
        <translation>Sin límite</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="189"/>
        <source>Exchanges per client (optional)</source>
        <translation>Canjes por cliente (opcional)</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="192"/>
        <source>None</source>
        <translation>Ninguna</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="195"/>
        <source>Category numbers (optional)</source>
        <translation>Números de categoría (opcional)</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="198"/>
        <source>Category numbers are shown in the merchant panel, where categories are managed; the service does not give the kiosk their names. Type the numbers separated by commas, or leave it empty.</source>
        <translation>Los números de categoría se ven en el panel del comercio, donde se administran las categorías; el servicio no le da sus nombres a la terminal. Escriba los números separados por comas, o déjelo vacío.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="221"/>
        <source>Now: no stock control.</source>
        <translation>Ahora: sin control de stock.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="222"/>
        <source>Now: %1 units available.</source>
        <translation>Ahora: %1 unidades disponibles.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="277"/>
        <source>clients without level</source>
        <translation>clientes sin nivel</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards_form.py" line="283"/>
        <source>Saving deletes the offer of: %1.</source>
        <translation>Al guardar se elimina la oferta de: %1.</translation>
    </message>
</context>
<context>
    <name>RewardTile</name>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/grid.py" line="166"/>
        <source>%1 pts</source>
        <translation>%1 pts</translation>
    </message>
    <message numerus="yes">
        <location filename="../../kiosk/ui/screens/rewards/grid.py" line="198"/>
        <source>%n left</source>
        <translation>
            <numerusform>queda %n</numerusform>
            <numerusform>quedan %n</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/grid.py" line="202"/>
        <source>%1 per client</source>
        <translation>%1 por cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/grid.py" line="208"/>
        <source>Out of stock</source>
        <translation>Sin stock</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/grid.py" line="210"/>
        <source>Already exchanged: %1 per client</source>
        <translation>Ya canjeado: %1 por cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/grid.py" line="214"/>
        <source>Missing %1 pts</source>
        <translation>Faltan %1 pts</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/grid.py" line="215"/>
        <source>Balance after: %1</source>
        <translation>Saldo después: %1</translation>
    </message>
</context>
<context>
    <name>RewardsScreen</name>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/screen.py" line="91"/>
        <location filename="../../kiosk/ui/screens/rewards/screen.py" line="137"/>
        <source>Rewards</source>
        <translation>Premios</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/screen.py" line="92"/>
        <source>Money</source>
        <translation>Dinero</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/screen.py" line="102"/>
        <source>Refresh</source>
        <translation>Actualizar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/screen.py" line="134"/>
        <location filename="../../kiosk/ui/screens/rewards/screen.py" line="195"/>
        <source>Identify a client to see the rewards they can exchange.</source>
        <translation>Identifique a un cliente para ver los premios que puede canjear.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/screen.py" line="218"/>
        <location filename="../../kiosk/ui/screens/rewards/screen.py" line="285"/>
        <source>Loading the rewards…</source>
        <translation>Cargando los premios…</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/screen.py" line="235"/>
        <source>The rewards could not be loaded. Tap Refresh to try again.</source>
        <translation>No se pudieron cargar los premios. Toque Actualizar para reintentar.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/screen.py" line="259"/>
        <source>%1 of %2 rewards within reach</source>
        <translation>%1 de %2 premios a su alcance</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/screen.py" line="287"/>
        <source>No rewards are available for this client right now.</source>
        <translation>No hay premios disponibles para este cliente en este momento.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/screen.py" line="315"/>
        <source>This reward is out of stock.</source>
        <translation>Este premio no tiene stock.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/screen.py" line="324"/>
        <source>The client is missing %1 points for %2.</source>
        <translation>Al cliente le faltan %1 puntos para %2.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/text.py" line="29"/>
        <source>Confirm the exchange</source>
        <translation>Confirmar el canje</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/text.py" line="30"/>
        <source>Exchange %1 for %2 points.</source>
        <translation>Canjear %1 por %2 puntos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/text.py" line="33"/>
        <source>Balance now: %1. Balance after: %2.</source>
        <translation>Saldo actual: %1. Saldo después: %2.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/text.py" line="36"/>
        <source>The points are debited at once. The client collects the reward with a code.</source>
        <translation>Los puntos se descuentan en el acto. El cliente retira el premio con un código.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/text.py" line="40"/>
        <source>Exchange for %1 pts</source>
        <translation>Canjear por %1 pts</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/text.py" line="49"/>
        <source>Confirm the money exchange</source>
        <translation>Confirmar el canje por dinero</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/text.py" line="50"/>
        <source>Exchange points for %1 in money.</source>
        <translation>Canjear puntos por %1 en dinero.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/text.py" line="53"/>
        <source>The client&apos;s balance: %1 points.</source>
        <translation>Saldo del cliente: %1 puntos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/text.py" line="57"/>
        <source>The points are computed by the program: there is no preview of how many will be taken. The result shows them.</source>
        <translation>Los puntos los calcula el programa: no hay una vista previa de cuántos se descontarán. El resultado los muestra.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/text.py" line="62"/>
        <source>Exchange for %1</source>
        <translation>Canjear por %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/text.py" line="69"/>
        <source>Exchanged for %1 in money</source>
        <translation>Canjeado por %1 en dinero</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/text.py" line="73"/>
        <source>Exchanged: %1</source>
        <translation>Canjeado: %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/text.py" line="76"/>
        <source>−%1 points</source>
        <translation>−%1 puntos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/text.py" line="79"/>
        <source>New balance: %1 (updating…)</source>
        <translation>Saldo nuevo: %1 (actualizando…)</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/screen.py" line="453"/>
        <source>New balance: %1</source>
        <translation>Saldo nuevo: %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/screen.py" line="457"/>
        <source>New balance: %1 (expected; could not be read now)</source>
        <translation>Saldo nuevo: %1 (estimado; no se pudo leer ahora)</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/offline.py" line="19"/>
        <source>No connection: exchanges need the service to check the balance and stock. Nothing was sent; try again when the connection returns.</source>
        <translation>Sin conexión: los canjes necesitan que el servicio verifique el saldo y el stock. No se envió nada; intente de nuevo cuando vuelva la conexión.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/rewards/offline.py" line="24"/>
        <source>Identify the client online to use rewards</source>
        <translation>Identifique al cliente con conexión para usar premios</translation>
    </message>
</context>
<context>
    <name>RewardsSection</name>
    <message>
        <location filename="../../kiosk/ui/admin/rewards.py" line="59"/>
        <source>New reward</source>
        <translation>Nuevo premio</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards.py" line="60"/>
        <source>Search rewards by name</source>
        <translation>Buscar premios por nombre</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards.py" line="62"/>
        <source>No rewards yet. Tap “New reward” to offer the first one to your clients.</source>
        <translation>Todavía no hay premios. Toque “Nuevo premio” para ofrecer el primero a sus clientes.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards.py" line="66"/>
        <source>Show</source>
        <translation>Mostrar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards.py" line="68"/>
        <source>All rewards</source>
        <translation>Todos los premios</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards.py" line="69"/>
        <location filename="../../kiosk/ui/admin/rewards.py" line="134"/>
        <source>Available</source>
        <translation>Disponible</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards.py" line="70"/>
        <location filename="../../kiosk/ui/admin/rewards.py" line="134"/>
        <source>Disabled</source>
        <translation>Desactivado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards.py" line="83"/>
        <source>Rewards</source>
        <translation>Premios</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards.py" line="97"/>
        <source>Reward</source>
        <translation>Premio</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards.py" line="98"/>
        <source>No level</source>
        <translation>Sin nivel</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards.py" line="105"/>
        <source>Stock</source>
        <translation>Stock</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards.py" line="106"/>
        <source>Per client</source>
        <translation>Por cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards.py" line="107"/>
        <source>State</source>
        <translation>Estado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards.py" line="118"/>
        <source>No limit</source>
        <translation>Sin límite</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards.py" line="120"/>
        <source>Out of stock</source>
        <translation>Sin stock</translation>
    </message>
    <message numerus="yes">
        <location filename="../../kiosk/ui/admin/rewards.py" line="122"/>
        <source>%n left</source>
        <translation>
            <numerusform>queda %n</numerusform>
            <numerusform>quedan %n</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards.py" line="129"/>
        <source>Max %1</source>
        <translation>Máx. %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards.py" line="267"/>
        <source>Reward saved: %1.</source>
        <translation>Premio guardado: %1.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/rewards.py" line="267"/>
        <source>Reward created: %1.</source>
        <translation>Premio creado: %1.</translation>
    </message>
</context>
<context>
    <name>SaleSide</name>
    <message>
        <location filename="../../kiosk/ui/screens/points/side.py" line="105"/>
        <location filename="../../kiosk/ui/screens/points/side.py" line="188"/>
        <source>Credit</source>
        <translation>Acreditar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/side.py" line="108"/>
        <source>Preview</source>
        <translation>Vista previa</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/side.py" line="156"/>
        <source>Preview unavailable: the service did not say how many points this sale gives. The credit gives what the service computes; the result shows it.</source>
        <translation>Vista previa no disponible: el servicio no dijo cuántos puntos da esta venta. La acreditación da lo que calcule el servicio; el resultado lo muestra.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/side.py" line="162"/>
        <source>The service is busy: no preview now. The kiosk asks it again at %1. The credit is saved and sent automatically.</source>
        <translation>El servicio está ocupado: ahora no hay vista previa. La terminal vuelve a consultarlo a las %1. La acreditación queda guardada y se envía automáticamente.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/side.py" line="167"/>
        <source>No preview without a connection: the points will be computed when the connection returns. The credit is saved and sent automatically.</source>
        <translation>Sin conexión no hay vista previa: los puntos se calcularán cuando vuelva la conexión. La acreditación queda guardada y se envía automáticamente.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/side.py" line="172"/>
        <source>Type the purchase amount with the keypad or the keyboard, then tap Preview.</source>
        <translation>Escriba el monto de la compra con el teclado numérico o el teclado, y después toque Vista previa.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/side.py" line="174"/>
        <source>Tap an item once per unit, then tap Preview.</source>
        <translation>Toque un ítem una vez por unidad, y después toque Vista previa.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/side.py" line="178"/>
        <source>Crediting…</source>
        <translation>Acreditando…</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/side.py" line="181"/>
        <source>Try again: credit</source>
        <translation>Reintentar: acreditar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/side.py" line="182"/>
        <source>Credit anyway</source>
        <translation>Acreditar igual</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/side.py" line="185"/>
        <source>Try again: save the credit</source>
        <translation>Reintentar: guardar la acreditación</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/side.py" line="186"/>
        <source>Save the credit</source>
        <translation>Guardar acreditación</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/side.py" line="191"/>
        <source>Try again: credit %1 points</source>
        <translation>Reintentar: acreditar %1 puntos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/points/side.py" line="192"/>
        <source>Credit %1 points</source>
        <translation>Acreditar %1 puntos</translation>
    </message>
</context>
<context>
    <name>ScanDesk</name>
    <message>
        <location filename="../../kiosk/ui/scan_desk.py" line="77"/>
        <source>That scan is not a client&apos;s DNI: nothing was typed.</source>
        <translation>Ese escaneo no es el DNI de un cliente: no se escribió nada.</translation>
    </message>
</context>
<context>
    <name>ScanOffer</name>
    <message>
        <location filename="../../kiosk/ui/widgets/scan_offer.py" line="46"/>
        <source>Switch to this client</source>
        <translation>Cambiar a este cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/scan_offer.py" line="52"/>
        <source>Keep the current screen</source>
        <translation>Seguir en esta pantalla</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/scan_offer.py" line="82"/>
        <source>Scanned: %1</source>
        <translation>Escaneado: %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/scan_offer.py" line="85"/>
        <source>Scanned: DNI %1</source>
        <translation>Escaneado: DNI %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/scan_offer.py" line="88"/>
        <source>Switch to this client? The sale on screen is not credited.</source>
        <translation>¿Cambiar a este cliente? La venta en pantalla no se acredita.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/scan_offer.py" line="90"/>
        <source>Identify this client?</source>
        <translation>¿Identificar a este cliente?</translation>
    </message>
</context>
<context>
    <name>SettingsScreen</name>
    <message>
        <location filename="../../kiosk/ui/manager/settings_screen.py" line="97"/>
        <source>Undo changes</source>
        <translation>Deshacer cambios</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_screen.py" line="100"/>
        <source>Save changes</source>
        <translation>Guardar cambios</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_screen.py" line="159"/>
        <source>Load the branches this key opens.</source>
        <translation>Cargue las sucursales de esta clave.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_screen.py" line="173"/>
        <source>Ignored entries in the settings files</source>
        <translation>Entradas ignoradas en los archivos de configuración</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_screen.py" line="174"/>
        <source>IT should correct these; until then the kiosk uses the values shown below.</source>
        <translation>Soporte técnico debería corregirlas; mientras tanto, la terminal usa los valores que se muestran abajo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_screen.py" line="255"/>
        <source>Load the branches of this environment.</source>
        <translation>Cargue las sucursales de este entorno.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_screen.py" line="279"/>
        <source>Store the API key first, then load the branches.</source>
        <translation>Primero guarde la API key y después cargue las sucursales.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_screen.py" line="349"/>
        <source>The key works and is saved in this computer&apos;s keyring. It will not be shown again.</source>
        <translation>La clave funciona y quedó guardada en el almacén de claves de esta computadora. No se va a volver a mostrar.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_screen.py" line="373"/>
        <source>Nothing to save: no setting was changed.</source>
        <translation>No hay nada para guardar: no se cambió ninguna opción.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_screen.py" line="379"/>
        <source>Saved: %1.</source>
        <translation>Guardado: %1.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_screen.py" line="401"/>
        <source>Nothing was saved. Check the marked fields.</source>
        <translation>No se guardó nada. Revise los campos marcados.</translation>
    </message>
    <message numerus="yes">
        <location filename="../../kiosk/ui/manager/settings_screen.py" line="406"/>
        <source>Not changed: %n credit(s) made here are still waiting to be sent where they were made. Changing the environment, the API key or the branch now would send them to the wrong place. Let them go out first (the status bar shows how many are pending), then try again.</source>
        <translation>
            <numerusform>No se cambió: %n acreditación hecha acá todavía espera ser enviada adonde se hizo. Si ahora cambia el entorno, la API key o la sucursal, se enviaría al lugar equivocado. Deje que salga primero (la barra de estado muestra cuántas hay pendientes) y después vuelva a intentar.</numerusform>
            <numerusform>No se cambió: %n acreditaciones hechas acá todavía esperan ser enviadas adonde se hicieron. Si ahora cambia el entorno, la API key o la sucursal, se enviarían al lugar equivocado. Deje que salgan primero (la barra de estado muestra cuántas hay pendientes) y después vuelva a intentar.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StartupError</name>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="65"/>
        <source>The kiosk cannot start</source>
        <translation>La terminal no puede iniciar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="68"/>
        <source>The kiosk&apos;s settings file cannot be read.</source>
        <translation>No se puede leer el archivo de configuración de la terminal.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="71"/>
        <source>A setting in the settings file is wrong or missing.</source>
        <translation>Un valor del archivo de configuración es incorrecto o falta.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="74"/>
        <source>A settings file contains an API key or another secret.</source>
        <translation>Un archivo de configuración contiene una API key u otro secreto.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="77"/>
        <source>This account has no secure place to keep the API key.</source>
        <translation>Esta cuenta no tiene un almacén seguro para guardar la API key.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="80"/>
        <source>The kiosk cannot write to its folder.</source>
        <translation>La terminal no puede escribir en su carpeta.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="83"/>
        <source>The disk is full.</source>
        <translation>El disco está lleno.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="84"/>
        <source>The kiosk&apos;s database cannot be used.</source>
        <translation>No se puede usar la base de datos de la terminal.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="85"/>
        <source>An unexpected error stopped the start.</source>
        <translation>Un error inesperado detuvo el inicio.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="88"/>
        <source>This account&apos;s keyring has no API key for this kiosk.</source>
        <translation>El llavero de esta cuenta no tiene una clave de API para esta terminal.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="91"/>
        <source>The loyalty service refused this kiosk&apos;s API key.</source>
        <translation>El servicio de fidelización rechazó la clave de API de esta terminal.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="97"/>
        <source>Call IT. IT: correct this file at the line shown, or run the installer again to write a new one; then start the kiosk again.</source>
        <translation>Llame a soporte técnico. Soporte técnico: corrija este archivo en la línea indicada, o vuelva a ejecutar el instalador para que escriba uno nuevo; luego inicie la terminal otra vez.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="102"/>
        <source>Call IT. IT: correct this setting in the file (docs/settings.md lists the values), then start the kiosk again.</source>
        <translation>Llame a soporte técnico. Soporte técnico: corrija este valor en el archivo (docs/settings.md lista los valores posibles) y luego inicie la terminal otra vez.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="107"/>
        <source>Call IT. IT: delete that line, rotate this key (it was kept in a plain file) and store the new one with &apos;loyalty-kiosk-cli provision&apos; as the kiosk&apos;s account; then start the kiosk again.</source>
        <translation>Llame a soporte técnico. Soporte técnico: borre esa línea, cambie esta clave (quedó guardada en un archivo común) y guarde la nueva con &apos;loyalty-kiosk-cli provision&apos; desde la cuenta de la terminal; luego inicie la terminal otra vez.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="113"/>
        <source>Call IT. IT: run the kiosk under a normal user account with its own profile and keyring (Windows Credential Manager; on Linux, a Secret Service keyring such as GNOME Keyring or KWallet), then &apos;loyalty-kiosk-cli provision&apos; as that account; then start the kiosk again.</source>
        <translation>Llame a soporte técnico. Soporte técnico: ejecute la terminal con una cuenta de usuario normal con perfil y llavero propios (Administrador de credenciales de Windows; en Linux, un llavero Secret Service como GNOME Keyring o KWallet) y luego &apos;loyalty-kiosk-cli provision&apos; desde esa cuenta; después inicie la terminal otra vez.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="120"/>
        <source>Call IT. IT: give the kiosk&apos;s account write access to this folder (it must not be on a read-only drive), then start the kiosk again.</source>
        <translation>Llame a soporte técnico. Soporte técnico: dé permiso de escritura en esta carpeta a la cuenta de la terminal (no puede estar en una unidad de solo lectura) y luego inicie la terminal otra vez.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="125"/>
        <source>Call IT. Nothing was lost: credits already saved wait in the kiosk&apos;s database. IT: free space on this disk, then start the kiosk again.</source>
        <translation>Llame a soporte técnico. No se perdió nada: las acreditaciones ya guardadas esperan en la base de datos de la terminal. Soporte técnico: libere espacio en este disco y luego inicie la terminal otra vez.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="130"/>
        <source>Call IT. Do not delete the file: it may hold credits not sent yet. IT: run &apos;loyalty-kiosk-cli --diagnostics&apos; and send the zip and this file to support.</source>
        <translation>Llame a soporte técnico. No borre el archivo: puede tener acreditaciones todavía no enviadas. Soporte técnico: ejecute &apos;loyalty-kiosk-cli --diagnostics&apos; y envíe el zip y este archivo al soporte de Loyalty Kiosk.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="135"/>
        <source>Start the kiosk again. If this comes back, call IT. IT: run &apos;loyalty-kiosk-cli --diagnostics&apos; and send the zip to support.</source>
        <translation>Inicie la terminal otra vez. Si vuelve a pasar, llame a soporte técnico. Soporte técnico: ejecute &apos;loyalty-kiosk-cli --diagnostics&apos; y envíe el zip al soporte de Loyalty Kiosk.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="140"/>
        <source>Call IT. IT: run &apos;loyalty-kiosk-cli provision&apos; as this account to store the key; then start the kiosk again.</source>
        <translation>Llame a soporte técnico. Soporte técnico: ejecute &apos;loyalty-kiosk-cli provision&apos; con esta cuenta para guardar la clave; luego inicie la terminal de nuevo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="145"/>
        <source>Call IT. IT: ask the merchant panel for a new key and store it with &apos;loyalty-kiosk-cli provision&apos; as this account; then start the kiosk again.</source>
        <translation>Llame a soporte técnico. Soporte técnico: pida una clave nueva en el panel del comercio y guárdela con &apos;loyalty-kiosk-cli provision&apos; con esta cuenta; luego inicie la terminal de nuevo.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="152"/>
        <source>File: %1, line %2</source>
        <translation>Archivo: %1, línea %2</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="153"/>
        <source>File: %1</source>
        <translation>Archivo: %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="154"/>
        <source>Folder: %1</source>
        <translation>Carpeta: %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="155"/>
        <source>Details: %1</source>
        <translation>Detalle: %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="156"/>
        <source>Written to the log: %1. Exit code %2.</source>
        <translation>Registrado en el log: %1. Código de salida %2.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="157"/>
        <source>The log could not be written. Exit code %1.</source>
        <translation>No se pudo escribir el log. Código de salida %1.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/startup_error.py" line="158"/>
        <source>Close the kiosk</source>
        <translation>Cerrar la terminal</translation>
    </message>
</context>
<context>
    <name>StateChip</name>
    <message>
        <location filename="../../kiosk/ui/admin/list_summary.py" line="50"/>
        <source>Sorted by %1</source>
        <translation>Ordenado por %1</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/admin/list_summary.py" line="62"/>
        <source>Clear the sort and the filters: %1</source>
        <translation>Quitar el orden y los filtros: %1</translation>
    </message>
</context>
<context>
    <name>TodayScreen</name>
    <message>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="92"/>
        <source>Today on this kiosk</source>
        <translation>Hoy en esta terminal</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="102"/>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="103"/>
        <source>Refresh</source>
        <translation>Actualizar</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="154"/>
        <source>No operations on this kiosk today yet.
Credits, exchanges, deliveries and cancels will appear here.</source>
        <translation>Todavía no hay operaciones hoy en esta terminal.
Acá van a aparecer las acreditaciones, los canjes, las entregas y las anulaciones.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="106"/>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="178"/>
        <source>Today</source>
        <translation>Hoy</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="213"/>
        <source>Pending (%1)</source>
        <translation>Pendientes (%1)</translation>
    </message>
    <message numerus="yes">
        <location filename="../../kiosk/ui/screens/today/screen.py" line="238"/>
        <source>%n operation(s) will be sent again now.</source>
        <translation>
            <numerusform>%n operación se enviará de nuevo ahora.</numerusform>
            <numerusform>%n operaciones se enviarán de nuevo ahora.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="255"/>
        <source>Not authorized. The operation stays in the list.</source>
        <translation>No autorizado. La operación sigue en la lista.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="261"/>
        <source>Discarded: it will not be sent. Today&apos;s list shows it as failed.</source>
        <translation>Descartada: no se enviará. La lista de hoy la muestra como fallida.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="306"/>
        <source>1 operation</source>
        <translation>1 operación</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="308"/>
        <source>%1 operations</source>
        <translation>%1 operaciones</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="310"/>
        <source>%1 points credited</source>
        <translation>%1 puntos acreditados</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="345"/>
        <source>This cancel was not authorized. Nothing changed.</source>
        <translation>Esta anulación no fue autorizada. No cambió nada.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="361"/>
        <source>Enter the manager PIN to cancel this credit.</source>
        <translation>Ingrese el PIN de encargado para anular esta acreditación.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="367"/>
        <source>Enter the manager PIN to discard this operation.</source>
        <translation>Ingrese el PIN de encargado para descartar esta operación.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="384"/>
        <source>The credit had not been sent yet: it is voided. No points were given.</source>
        <translation>La acreditación aún no se había enviado: quedó anulada. No se dieron puntos.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="389"/>
        <source>Cancel saved: it will be sent automatically (see Pending).</source>
        <translation>Anulación guardada: se enviará automáticamente (vea Pendientes).</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="394"/>
        <source>This credit was already canceled or does not exist. Nothing was changed.</source>
        <translation>Esta acreditación ya fue anulada o no existe. No se cambió nada.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="398"/>
        <source>the client</source>
        <translation>el cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/screen.py" line="400"/>
        <source>Credit canceled: %1 points taken back from %2.</source>
        <translation>Acreditación anulada: se le descontaron %1 puntos a %2.</translation>
    </message>
</context>
<context>
    <name>TodayTable</name>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="38"/>
        <source>Credit</source>
        <translation>Acreditación</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="39"/>
        <source>Reward exchange</source>
        <translation>Canje de premio</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="40"/>
        <source>Money exchange</source>
        <translation>Canje por dinero</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="41"/>
        <source>Delivery</source>
        <translation>Entrega</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="42"/>
        <source>Credit canceled</source>
        <translation>Acreditación anulada</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="43"/>
        <source>Enrollment</source>
        <translation>Alta de cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="46"/>
        <source>Done</source>
        <translation>Hecho</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="47"/>
        <source>Already credited</source>
        <translation>Ya acreditado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="48"/>
        <source>Pending</source>
        <translation>Pendiente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="49"/>
        <source>Failed</source>
        <translation>Falló</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="50"/>
        <source>Refused</source>
        <translation>Rechazado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="51"/>
        <source>Voided</source>
        <translation>Descartado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="52"/>
        <source>Previewed, not credited</source>
        <translation>Previsualizada, no acreditada</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="55"/>
        <source>Canceled</source>
        <translation>Anulado</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="56"/>
        <source>Cancel pending</source>
        <translation>Anulación pendiente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="59"/>
        <source>Time</source>
        <translation>Hora</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="60"/>
        <source>Operation</source>
        <translation>Operación</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="61"/>
        <source>Client</source>
        <translation>Cliente</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="62"/>
        <source>Points</source>
        <translation>Puntos</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="63"/>
        <source>Amount</source>
        <translation>Monto</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="64"/>
        <source>Ticket</source>
        <translation>Ticket</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/screens/today/model.py" line="65"/>
        <source>Result</source>
        <translation>Resultado</translation>
    </message>
</context>
<context>
    <name>TouchKeyboard</name>
    <message>
        <location filename="../../kiosk/ui/widgets/touch_keyboard.py" line="41"/>
        <source>Shift</source>
        <translation>Mayús</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/touch_keyboard.py" line="43"/>
        <source>Space</source>
        <translation>Espacio</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/widgets/touch_keyboard.py" line="45"/>
        <source>Done</source>
        <translation>Listo</translation>
    </message>
</context>
<context>
    <name>TrainingSection</name>
    <message>
        <location filename="../../kiosk/ui/manager/settings_training.py" line="30"/>
        <source>Training</source>
        <translation>Práctica</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_training.py" line="32"/>
        <source>Practise the offline flow: while this is on, the training service cannot be reached, as when the network is down. Operations wait in the outbox and are sent once it is off.</source>
        <translation>Practique el trabajo sin conexión: mientras esto esté activado, no se puede llegar al servicio de práctica, como cuando se corta la red. Las operaciones esperan en la cola y se envían cuando lo desactive.</translation>
    </message>
    <message>
        <location filename="../../kiosk/ui/manager/settings_training.py" line="39"/>
        <source>Simulate no connection</source>
        <translation>Simular sin conexión</translation>
    </message>
</context>
</TS>
