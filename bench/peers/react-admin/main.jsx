// The peer of the initial-JavaScript benchmark: the smallest ordinary react-admin app for the same three
// resources as the demo, with guessers, over ra-data-simple-rest. The bench server translates its
// simple-REST calls (under /ra-api) to our prototype API so that the screens render real rows.
// Telemetry is off: it calls a host outside this machine's closed network.

import simpleRestProvider from 'ra-data-simple-rest';
import { Admin, EditGuesser, ListGuesser, Resource, ShowGuesser } from 'react-admin';
import { createRoot } from 'react-dom/client';

const dataProvider = simpleRestProvider('/ra-api');

function App() {
  return (
    <Admin dataProvider={dataProvider} title="Harbor Supply" disableTelemetry>
      <Resource name="orders" list={ListGuesser} edit={EditGuesser} show={ShowGuesser} />
      <Resource name="customers" list={ListGuesser} edit={EditGuesser} show={ShowGuesser} />
      <Resource name="products" list={ListGuesser} edit={EditGuesser} show={ShowGuesser} />
    </Admin>
  );
}

createRoot(document.getElementById('root')).render(<App />);
