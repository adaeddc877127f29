// The peer of the form-typing benchmark: rjsf rendering a JSON Schema of the same 200 fields as our
// generated entity, in its ordinary way (the Form keeps the values in its state). schema.json is written
// by bench/client.ts before building, from the same field list as our specification. `?liveValidate=1`
// turns on rjsf's validation while typing, for a second figure.
import Form from '@rjsf/core';
import validator from '@rjsf/validator-ajv8';
import { createRoot } from 'react-dom/client';
import schema from './schema.json';

const liveValidate = new URLSearchParams(location.search).has('liveValidate');

function NewRecord() {
  return (
    <main>
      <h1>New record</h1>
      <Form schema={schema} validator={validator} liveValidate={liveValidate} />
    </main>
  );
}

createRoot(document.getElementById('root')).render(<NewRecord />);
